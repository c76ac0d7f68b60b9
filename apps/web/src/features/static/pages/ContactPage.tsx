import { Anchor, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconBug, IconLock, IconMail } from '@tabler/icons-react';
import { Link } from 'react-router';
import { routes } from '../../../app/routes.ts';
import { StaticLayout } from '../components/StaticLayout.tsx';

export const SUPPORT_EMAIL = 'support@kutu.africa';
export const PRIVACY_EMAIL = 'privacy@kutu.africa';

const channels = [
  {
    icon: IconMail,
    title: 'Help with your account',
    email: SUPPORT_EMAIL,
    text: 'Codes that do not arrive, sign-in problems, bookings, or anything else about using Kutu.',
  },
  {
    icon: IconLock,
    title: 'Privacy and your data',
    email: PRIVACY_EMAIL,
    text: 'Ask for a copy of your data, a correction, or for your account to be deleted.',
  },
  {
    icon: IconBug,
    title: 'Report a problem with a result',
    email: SUPPORT_EMAIL,
    text: 'If an analysis looks wrong, tell us the date and time it was made; it helps us improve the model.',
  },
];

export default function ContactPage() {
  return (
    <StaticLayout title="Contact us">
      <Text>
        Kutu is run by a small team. We answer email in English, Swahili and Luganda, Monday to Friday, usually within
        two working days (East Africa Time).
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {channels.map(({ icon: Icon, title, email, text }) => (
          <Card key={title} withBorder radius="md" p="md">
            <Stack gap="xs">
              <Icon size={24} aria-hidden />
              <Title order={2} size="h4">
                {title}
              </Title>
              <Text size="sm">{text}</Text>
              <Anchor href={`mailto:${email}`}>{email}</Anchor>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
      <Stack gap="xs">
        <Title order={2} size="h3">
          Before you write
        </Title>
        <List spacing="xs">
          <List.Item>
            Verification codes come by email (sign-up) and by SMS (activation); each can be sent again from its screen
            after a short wait.
          </List.Item>
          <List.Item>
            Forgot your password? Use{' '}
            <Anchor component={Link} to={routes.auth.forgotPassword}>
              Forgot Password
            </Anchor>{' '}
            on the sign-in screen.
          </List.Item>
          <List.Item>Never send us your password or a one-time code. Kutu staff will never ask for them.</List.Item>
          <List.Item>
            For urgent crop problems, contact your local agricultural extension officer as well; email replies can take
            a day or two.
          </List.Item>
        </List>
        <Text size="sm" c="dimmed">
          Read how we use your data in our{' '}
          <Anchor component={Link} to={`${routes.terms}#privacy`}>
            privacy notice
          </Anchor>
          .
        </Text>
      </Stack>
    </StaticLayout>
  );
}
