// Who the console acts as: the credentials the user signed in with (none when the broker needs none), and
// whether the broker asked for them (a 401 on any call). Changing them clears the query cache, so nothing
// fetched as one user is shown to another.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { setRequestCredentials } from './api/client';
import { loadCredentials, storeCredentials, type Credentials } from './api/credentials';

interface Session {
  credentials: Credentials | null;
  /** The broker answered 401: the login page is shown. */
  loginRequired: boolean;
  signIn(credentials: Credentials): void;
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [credentials, setCredentials] = useState<Credentials | null>(() => loadCredentials(sessionStorage));
  const [loginRequired, setLoginRequired] = useState(false);
  setRequestCredentials(credentials, () => setLoginRequired(true));

  const change = useCallback(
    (next: Credentials | null) => {
      storeCredentials(sessionStorage, next);
      setRequestCredentials(next, () => setLoginRequired(true));
      setCredentials(next);
      setLoginRequired(next === null ? loginRequired : false);
      queryClient.clear();
    },
    [queryClient, loginRequired],
  );

  const session = useMemo<Session>(
    () => ({ credentials, loginRequired, signIn: change, signOut: () => change(null) }),
    [credentials, loginRequired, change],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside SessionProvider');
  return session;
}
