// One record: where it is, when, its key, value (in the chosen view) and headers, and a copy-as-JSON button.
import { Badge, Button, Code, CopyButton, Group, Paper, Stack, Text } from '@mantine/core';
import { recordAsJson, renderBytes, type ConsoleRecord, type ValueView } from '../../lib/records';

export function RecordView({ record, view }: { record: ConsoleRecord; view: ValueView }) {
  return (
    <Paper withBorder p="xs" data-testid="record">
      <Stack gap={4}>
        <Group gap="xs" justify="space-between">
          <Group gap="xs">
            <Badge variant="light">
              {record.partition}:{record.offset}
            </Badge>
            <Text size="xs">{new Date(record.timestamp).toISOString()}</Text>
            {record.valueSchemaId != null && (
              <Badge variant="outline" data-testid="record-schema-id">
                value schema {record.valueSchemaId}
              </Badge>
            )}
          </Group>
          <CopyButton value={recordAsJson(record)}>
            {({ copied, copy }) => (
              <Button size="compact-xs" variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy as JSON'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm">
          Key: <Code data-testid="record-key">{renderBytes(record.key, view === 'json' ? 'text' : view)}</Code>
        </Text>
        {(record.keyError ?? record.valueError) != null && (
          <Text size="sm" c="red.9" data-testid="record-decode-error">
            {[record.keyError && `Key: ${record.keyError}`, record.valueError && `Value: ${record.valueError}`]
              .filter(Boolean)
              .join(' ')}
          </Text>
        )}
        <Code block data-testid="record-value">
          {renderBytes(record.value, view)}
        </Code>
        {record.headers.length > 0 && (
          <Text size="xs">
            Headers:{' '}
            {record.headers
              .map((header) => `${header.name}=${renderBytes(header.value, view === 'hex' ? 'hex' : 'text')}`)
              .join(', ')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
