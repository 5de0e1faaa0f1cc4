// The frame of every page: a header (name, who is signed in, light/dark switch, sign out) and the navigation,
// collapsed behind a burger on a phone.
import {
  ActionIcon,
  AppShell,
  Burger,
  Button,
  Group,
  NavLink,
  Text,
  Title,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { principalLabel } from '../api/credentials';
import { useSession } from '../session';

const PAGES = [
  { href: '/', label: 'Overview' },
  { href: '/topics', label: 'Topics' },
  { href: '/groups', label: 'Consumer groups' },
  { href: '/schemas', label: 'Schemas' },
  { href: '/acls', label: 'ACLs' },
];

export function Layout({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const [location] = useLocation();
  const session = useSession();
  const { colorScheme, toggleColorScheme } = useMantineColorScheme();
  const who = principalLabel(session.credentials);
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <Title order={1} size="h3">
              Brook Console
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {who !== null && (
              <Text size="sm" visibleFrom="xs">
                {who}
              </Text>
            )}
            <ActionIcon
              variant="default"
              onClick={toggleColorScheme}
              aria-label={colorScheme === 'dark' ? 'Light theme' : 'Dark theme'}
            >
              {colorScheme === 'dark' ? '☀' : '☾'}
            </ActionIcon>
            {who !== null && (
              <Button variant="default" size="xs" onClick={session.signOut}>
                Sign out
              </Button>
            )}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Pages">
        {PAGES.map((page) => (
          <NavLink
            key={page.href}
            component={Link}
            href={page.href}
            label={page.label}
            onClick={close}
            active={page.href === '/' ? location === '/' : location.startsWith(page.href)}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
