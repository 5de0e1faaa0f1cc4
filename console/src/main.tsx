// Brook Console's entry: Mantine (light and dark, following the system until the user picks one), TanStack
// Query for every API read, and the session (credentials) around the pages.
import '@mantine/core/styles.css';
import 'uplot/dist/uPlot.min.css';
import { MantineProvider, localStorageColorSchemeManager } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError } from './api/client';
import { App } from './app';
import { SessionProvider } from './session';
import { cssVariablesResolver, theme } from './theme';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // one retry for a failure on the way; none for the broker's refusals (4xx), which a retry does not change
      retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status < 500),
      staleTime: 2_000,
      refetchOnWindowFocus: false,
    },
  },
});
const colorSchemeManager = localStorageColorSchemeManager({ key: 'brook-console-color-scheme' });

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
    >
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <App />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
