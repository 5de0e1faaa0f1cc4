// The built-in schema registry (Confluent's API at the broker's root paths): subjects, their versions, and one
// version's schema. Answers are application/vnd.schemaregistry.v1+json; openapi-fetch parses them as JSON.
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from './client';

export interface SubjectVersion {
  subject: string;
  version: number;
  id: number;
  schemaType?: string;
  schema: string;
  references?: { name: string; subject: string; version: number }[];
}

export function useSubjects() {
  return useQuery({
    queryKey: ['subjects'],
    queryFn: async () => unwrap(await api.GET('/subjects')) as unknown as string[],
  });
}

export function useVersions(subject: string | undefined) {
  return useQuery({
    queryKey: ['subject-versions', subject],
    enabled: subject !== undefined,
    queryFn: async () =>
      unwrap(
        await api.GET('/subjects/{subject}/versions', { params: { path: { subject: subject! } } }),
      ) as unknown as number[],
  });
}

export function useSubjectVersion(subject: string | undefined, version: string | undefined) {
  return useQuery({
    queryKey: ['subject-version', subject, version],
    enabled: subject !== undefined && version !== undefined,
    queryFn: async () =>
      unwrap(
        await api.GET('/subjects/{subject}/versions/{version}', {
          params: { path: { subject: subject!, version: version! } },
        }),
      ) as unknown as SubjectVersion,
  });
}

/** The schema text as shown: JSON (Avro, JSON Schema) pretty-printed, Protobuf as it is. */
export function schemaText(version: SubjectVersion): string {
  if (version.schemaType === 'PROTOBUF') return version.schema;
  try {
    return JSON.stringify(JSON.parse(version.schema), null, 2);
  } catch {
    return version.schema;
  }
}
