// Schemas: the registry's subjects (searchable), a subject's versions, and one version's schema text, type, id and
// references. The URL names the subject and version (#/schemas/orders-value/2).
import { Anchor, Badge, Code, Group, NavLink, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { schemaText, useSubjects, useSubjectVersion, useVersions } from '../../api/schemas';
import { ErrorAlert } from '../../components/error-alert';

export function SchemasPage() {
  const params = useParams<{ subject?: string; version?: string }>();
  const subject = params.subject === undefined ? undefined : decodeURIComponent(params.subject);
  const [search, setSearch] = useState('');
  const subjects = useSubjects();
  const versions = useVersions(subject);
  const latest = versions.data?.at(-1);
  const version = params.version ?? (latest === undefined ? undefined : String(latest));
  const detail = useSubjectVersion(subject, version);
  const shown = (subjects.data ?? []).filter((name) => name.toLowerCase().includes(search.toLowerCase()));
  const href = (name: string, v?: number) => `/schemas/${encodeURIComponent(name)}${v === undefined ? '' : `/${v}`}`;

  return (
    <Stack>
      <Title order={2}>Schemas</Title>
      {subjects.isError && <ErrorAlert error={subjects.error} />}
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <Stack gap="xs">
          <TextInput label="Search subjects" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
          <nav aria-label="Subjects">
            {shown.map((name) => (
              <NavLink
                key={name}
                component={Link}
                href={href(name)}
                label={name}
                active={name === subject}
                data-testid={`subject-${name}`}
              />
            ))}
          </nav>
          {subjects.data?.length === 0 && <Text>No subjects registered.</Text>}
        </Stack>
        <Stack style={{ gridColumn: 'span 2' }}>
          {subject === undefined ? (
            <Text>Pick a subject to see its versions and schemas.</Text>
          ) : (
            <>
              <Title order={3}>{subject}</Title>
              {versions.isError && <ErrorAlert error={versions.error} />}
              <Group gap="xs" aria-label="Versions" role="group">
                <Text size="sm">Versions:</Text>
                {versions.data?.map((v) => (
                  <Anchor key={v} component={Link} href={href(subject, v)} fw={String(v) === version ? 700 : 400}>
                    {v}
                  </Anchor>
                ))}
              </Group>
              {detail.isError && <ErrorAlert error={detail.error} />}
              {detail.data !== undefined && (
                <Paper withBorder p="sm">
                  <Group gap="sm" mb="xs">
                    <Text data-testid="schema-version">Version {detail.data.version}</Text>
                    <Text data-testid="schema-id">Id {detail.data.id}</Text>
                    <Badge data-testid="schema-type">{detail.data.schemaType ?? 'AVRO'}</Badge>
                  </Group>
                  {(detail.data.references?.length ?? 0) > 0 && (
                    <Text size="sm">
                      References:{' '}
                      {detail.data.references!.map((ref) => `${ref.name} (${ref.subject} v${ref.version})`).join(', ')}
                    </Text>
                  )}
                  <Code block data-testid="schema-text">
                    {schemaText(detail.data)}
                  </Code>
                </Paper>
              )}
            </>
          )}
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
