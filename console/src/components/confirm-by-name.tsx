// A confirmation for a destructive action that names what it destroys: the button only works once the user has
// typed the name.
import { Button, Group, Modal, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from './error-alert';

export function ConfirmByName(props: {
  opened: boolean;
  title: string;
  name: string;
  action: string;
  busy: boolean;
  error: unknown;
  onCancel(): void;
  onConfirm(): void;
}) {
  const [typed, setTyped] = useState('');
  return (
    <Modal
      opened={props.opened}
      onClose={props.onCancel}
      title={props.title}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Text mb="sm">
        Type <strong>{props.name}</strong> to confirm.
      </Text>
      <TextInput label="Name" value={typed} onChange={(event) => setTyped(event.currentTarget.value)} data-autofocus />
      {props.error !== null && props.error !== undefined && <ErrorAlert error={props.error} />}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button color="red" disabled={typed !== props.name} loading={props.busy} onClick={props.onConfirm}>
          {props.action}
        </Button>
      </Group>
    </Modal>
  );
}
