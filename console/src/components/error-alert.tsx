// An error as the broker said it: its message and, for the API's errors, the five-digit error code.
import { Alert } from '@mantine/core';
import { ApiError } from '../api/client';

export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ApiError && error.errorCode !== null ? ` (${error.errorCode})` : '';
  return (
    <Alert color="red" title={title ?? 'The broker refused'} role="alert" data-testid="error">
      {message}
      {code}
    </Alert>
  );
}
