import { Box, Card, Group, Image, List, Stack, Text } from '@mantine/core';
import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../components/LanguageSwitch/LanguageSwitch.tsx';
import classes from './AuthLayout.module.css';

/** Branded hero beside a card holding the routed screen. */
export function AuthLayout() {
  const { t } = useTranslation();
  return (
    <div className={classes.page}>
      <Box className={classes.hero} visibleFrom="md">
        <Stack gap="md" maw={420}>
          <Group gap="sm">
            <Image src="/favicon.svg" w={48} h={48} alt="" />
            <Text fz={34} fw={700} c="white">
              {t('app.name')}
            </Text>
          </Group>
          <Text size="xl" fw={600} c="white">
            {t('app.tagline')}
          </Text>
          <Text c="green.0">{t('app.hero.intro')}</Text>
          <List c="white" size="sm" spacing={4}>
            <List.Item>{t('app.hero.rust')}</List.Item>
            <List.Item>{t('app.hero.community')}</List.Item>
            <List.Item>{t('app.hero.consult')}</List.Item>
          </List>
        </Stack>
      </Box>
      {/* The routed screen's title is the page's one <h1>. */}
      <main className={classes.side}>
        <Card withBorder shadow="sm" radius="lg" p="xl" className={classes.card}>
          <Group justify="space-between" wrap="nowrap" mb="md">
            <Group gap="xs" hiddenFrom="md">
              <Image src="/favicon.svg" w={28} h={28} alt="" />
              <Text fw={700}>{t('app.name')}</Text>
            </Group>
            <Box ml="auto">
              <LanguageSwitch />
            </Box>
          </Group>
          <Outlet />
        </Card>
      </main>
    </div>
  );
}
