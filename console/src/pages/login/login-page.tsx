// Sign in when the broker asks for credentials: a user and password (Basic) or an API key (Bearer). The
// credentials are checked by calling the API with them; a refusal shows the broker's message.
import { Button, Center, Paper, PasswordInput, Stack, Tabs, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { ApiError, FETCH_CREDENTIALS } from '../../api/client';
import { authorizationHeader, type Credentials } from '../../api/credentials';
import { ErrorAlert } from '../../components/error-alert';
import { useSession } from '../../session';

async function check(credentials: Credentials): Promise<void> {
  const response = await fetch('/v3/clusters', {
    headers: { authorization: authorizationHeader(credentials)! },
    credentials: FETCH_CREDENTIALS,
  });
  if (response.ok) return;
  const body = (await response.json().catch(() => ({}))) as { error_code?: number; message?: string };
  throw new ApiError(response.status, body.error_code ?? null, body.message ?? `${response.status}`);
}

export function LoginPage() {
  const session = useSession();
  const [kind, setKind] = useState<'basic' | 'apiKey'>('basic');
  const [user, setUser] = useState('');
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async () => {
    const credentials: Credentials = kind === 'basic' ? { kind, user, password } : { kind, key };
    setBusy(true);
    setError(null);
    try {
      await check(credentials);
      session.signIn(credentials);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="lg" w={380} component="main">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <Stack>
            <Title order={1} size="h3">
              Sign in to Brook
            </Title>
            <Tabs value={kind} onChange={(value) => setKind(value === 'apiKey' ? 'apiKey' : 'basic')}>
              <Tabs.List grow>
                <Tabs.Tab value="basic">User and password</Tabs.Tab>
                <Tabs.Tab value="apiKey">API key</Tabs.Tab>
              </Tabs.List>
            </Tabs>
            {kind === 'basic' ? (
              <>
                <TextInput
                  label="User"
                  autoComplete="username"
                  value={user}
                  onChange={(e) => setUser(e.currentTarget.value)}
                  required
                />
                <PasswordInput
                  label="Password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  required
                />
              </>
            ) : (
              <PasswordInput
                label="API key"
                description="brook_<key id>_<secret>"
                value={key}
                onChange={(e) => setKey(e.currentTarget.value)}
                required
              />
            )}
            {error !== null && <ErrorAlert error={error} title="Not signed in" />}
            <Button type="submit" loading={busy}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
