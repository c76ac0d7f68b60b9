import type { ReactNode } from 'react';
import { Anchor, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { routes } from '../../../config/routes.ts';
import { PRIVACY_EMAIL, SUPPORT_EMAIL } from '../contacts.ts';

/** One numbered part of the terms; `id` lets other pages link to it (`/terms#privacy`). */
export function TermsSection({ id, title, children }: { id?: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" id={id} aria-labelledby={id ? `${id}-title` : undefined}>
      <Title order={2} size="h3" id={id ? `${id}-title` : undefined}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export const PrivacyEmail = () => <Anchor href={`mailto:${PRIVACY_EMAIL}`}>{PRIVACY_EMAIL}</Anchor>;
export const SupportEmail = () => <Anchor href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</Anchor>;
export const ContactLink = ({ children }: { children: ReactNode }) => (
  <Anchor component={Link} to={routes.contactUs}>
    {children}
  </Anchor>
);
