import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ModerationStatus } from '@kutu/contract';

const colors: Record<ModerationStatus, string> = { pending: 'yellow', approved: 'green', flagged: 'red' };

/** The one moderation state of a post or comment: Pending, Approved or Flagged. */
export function StatusBadge({ status }: { status: ModerationStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[status]} variant="light">
      {t(`community.status.${status}`)}
    </Badge>
  );
}
