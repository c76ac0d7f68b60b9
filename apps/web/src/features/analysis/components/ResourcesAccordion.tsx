import { Accordion, Anchor, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { EducationalResource } from '@kutu/contract';

/** Each resource: the title, then the link and what it covers (spec: title, then url and description). */
export function ResourcesAccordion({ resources }: { resources: EducationalResource[] }) {
  return (
    <Accordion variant="separated" data-testid="resources-accordion">
      {resources.map((r) => (
        <Accordion.Item key={r.url} value={r.url}>
          <Accordion.Control>{r.title}</Accordion.Control>
          <Accordion.Panel>
            <Stack gap={6}>
              <Anchor href={r.url} target="_blank" rel="noopener noreferrer" style={{ wordBreak: 'break-all' }}>
                {r.url} <IconExternalLink size={14} style={{ verticalAlign: 'middle' }} />
              </Anchor>
              <Text size="sm">{r.description}</Text>
            </Stack>
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
