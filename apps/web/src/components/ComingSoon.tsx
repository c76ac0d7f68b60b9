import { Alert } from '@mantine/core';

/** Temporary content for a screen that a later issue builds. */
export function ComingSoon({ title }: { title: string }) {
  return (
    <Alert title={title} color="gray">
      This screen is coming soon.
    </Alert>
  );
}
