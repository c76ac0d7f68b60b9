import { Anchor, Badge, Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ContentLanguage, EducationResource } from '@kutu/contract';
import { PHONE_QUERY } from '../../../config/theme.ts';

interface ResourceRowsProps {
  resources: EducationResource[];
  /** The language whose titles and descriptions are shown (a row not yet in it says so). */
  textLanguage: ContentLanguage;
  languageName: string;
  onEdit: (resource: EducationResource) => void;
  onRetire: (resource: EducationResource) => void;
}

/**
 * The experts' resources: a table on a wide screen; on a phone one card each, so that its title,
 * description and its Edit and Retire buttons are all on the screen, not in a table wider than it.
 */
export function ResourceRows(props: ResourceRowsProps) {
  const phone = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
  return phone ? <ResourceCards {...props} /> : <ResourceTable {...props} />;
}

function TitleCell({
  r,
  textLanguage,
  languageName,
}: { r: EducationResource } & Omit<ResourceRowsProps, 'resources' | 'onEdit' | 'onRetire'>) {
  const { t } = useTranslation();
  return (
    <Stack gap={2}>
      <Text fw={500} size="sm">
        {r.title} {r.retired && <Badge color="gray">{t('analysis.manage.retiredBadge')}</Badge>}
      </Text>
      {r.language !== textLanguage && (
        <Text size="xs" c="orange.9" data-testid="not-translated">
          {t('analysis.manage.notTranslated', { language: languageName })}
        </Text>
      )}
      <Anchor href={r.url} target="_blank" rel="noopener noreferrer" size="xs" style={{ wordBreak: 'break-all' }}>
        {r.url}
      </Anchor>
    </Stack>
  );
}

function Actions({ r, onEdit, onRetire }: { r: EducationResource } & Pick<ResourceRowsProps, 'onEdit' | 'onRetire'>) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Button size="xs" variant="light" leftSection={<IconPencil size={14} />} onClick={() => onEdit(r)}>
        {t('analysis.common.edit')}
      </Button>
      {!r.retired && (
        <Button size="xs" variant="light" color="red" leftSection={<IconTrash size={14} />} onClick={() => onRetire(r)}>
          {t('analysis.manage.retire')}
        </Button>
      )}
    </Group>
  );
}

function ResourceTable({ resources, onEdit, onRetire, ...cell }: ResourceRowsProps) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table striped verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('analysis.manage.fieldTitle')}</Table.Th>
            <Table.Th>{t('analysis.manage.fieldDescription')}</Table.Th>
            <Table.Th>{t('analysis.manage.fieldPosition')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {resources.map((r) => (
            <Table.Tr key={r.id} opacity={r.retired ? 0.55 : 1}>
              <Table.Td maw={260}>
                <TitleCell r={r} {...cell} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={3}>
                  {r.description}
                </Text>
              </Table.Td>
              <Table.Td>{r.position}</Table.Td>
              <Table.Td>
                <Actions r={r} onEdit={onEdit} onRetire={onRetire} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ResourceCards({ resources, onEdit, onRetire, ...cell }: ResourceRowsProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="resource-cards">
      {resources.map((r) => (
        <Card key={r.id} withBorder padding="sm" opacity={r.retired ? 0.55 : 1}>
          <Stack gap="xs">
            <TitleCell r={r} {...cell} />
            <Text size="sm">{r.description}</Text>
            <Text size="xs" c="dimmed">
              {t('analysis.manage.fieldPosition')}: {r.position}
            </Text>
            <Actions r={r} onEdit={onEdit} onRetire={onRetire} />
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
