import { Accordion, Anchor, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { EducationalResource } from '@kutu/contract';

/**
 * Each resource: the title, then the link and what it covers (spec: title, then url and description).
 * A link to a page in another language than the reader's says which (most pages are in English).
 */
export function ResourcesAccordion({ resources }: { resources: EducationalResource[] }) {
  const { t, i18n } = useTranslation();
  const readerLanguage = (i18n.resolvedLanguage ?? i18n.language ?? 'en').split('-')[0];
  return (
    <Accordion variant="separated" data-testid="resources-accordion">
      {resources.map((r) => (
        <Accordion.Item key={r.url} value={r.url}>
          <Accordion.Control>{r.title}</Accordion.Control>
          <Accordion.Panel>
            <Stack gap={6}>
              <Anchor
                href={r.url}
                target="_blank"
                rel="noopener noreferrer"
                hrefLang={r.link_language}
                style={{ wordBreak: 'break-all' }}
              >
                {r.url} <IconExternalLink size={14} style={{ verticalAlign: 'middle' }} />
              </Anchor>
              {r.link_language !== readerLanguage && (
                <Text size="xs" c="dimmed" data-testid="resource-link-language">
                  {t(`analysis.resources.linkIn.${r.link_language}`)}
                </Text>
              )}
              <Text size="sm">{r.description}</Text>
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
