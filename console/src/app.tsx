// The console's shell and routes. Routes live in the URL's hash (#/topics/orders/messages/0/42), so every view
// is a shareable link and the broker needs to serve one page only.
import { Center, Loader } from '@mantine/core';
import { Route, Router, Switch } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { useCluster } from './api/cluster';
import { ErrorAlert } from './components/error-alert';
import { Layout } from './components/layout';
import { AclsPage } from './pages/acls/acls-page';
import { GroupPage } from './pages/group/group-page';
import { GroupsPage } from './pages/groups/groups-page';
import { LoginPage } from './pages/login/login-page';
import { OverviewPage } from './pages/overview/overview-page';
import { SchemasPage } from './pages/schemas/schemas-page';
import { TopicPage } from './pages/topic/topic-page';
import { TopicsPage } from './pages/topics/topics-page';
import { useSession } from './session';

export function App() {
  const session = useSession();
  const cluster = useCluster();
  if (session.loginRequired) return <LoginPage />;
  if (cluster.isPending)
    return (
      <Center h="100vh">
        <Loader aria-label="Connecting to the broker" />
      </Center>
    );
  return (
    <Router hook={useHashLocation}>
      <Layout>
        {cluster.isError ? (
          <ErrorAlert error={cluster.error} title="The broker did not answer" />
        ) : (
          <Switch>
            <Route path="/" component={OverviewPage} />
            <Route path="/topics" component={TopicsPage} />
            <Route path="/topics/:name/:tab?/:partition?/:offset?" component={TopicPage} />
            <Route path="/groups" component={GroupsPage} />
            <Route path="/groups/:group" component={GroupPage} />
            <Route path="/acls" component={AclsPage} />
            <Route path="/schemas/:subject?/:version?" component={SchemasPage} />
            <Route>
              <ErrorAlert error={new Error('No such page')} title="Not found" />
            </Route>
          </Switch>
        )}
      </Layout>
    </Router>
  );
}
