import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" component="main">
      <Stack align="center">
        <Title order={1} size="h2">
          {t('shell.notFound.title')}
        </Title>
        <Text c="dimmed">{t('shell.notFound.text')}</Text>
        <Anchor component={Link} to="/">
          {t('shell.notFound.home')}
        </Anchor>
      </Stack>
    </Center>
  );
}
