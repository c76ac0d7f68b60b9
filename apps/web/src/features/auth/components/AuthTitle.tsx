import type { ReactNode } from 'react';
import { Stack, Text, Title } from '@mantine/core';

/** The heading of an auth screen, with an optional line under it. */
export function AuthTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack gap={4} mb="lg">
      <Title order={1} size="h2">
        {title}
      </Title>
      {children ? (
        <Text size="sm" c="dimmed">
          {children}
        </Text>
      ) : null}
    </Stack>
  );
}
