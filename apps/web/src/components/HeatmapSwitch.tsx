import { Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The switch that lays the model's heatmap over a photo; only experts see it, so it loads on its own. */
export default function HeatmapSwitch({ checked, onChange }: { checked: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Switch
      size="sm"
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
      label={t('analysis.heatmap.toggle')}
      data-testid="heatmap-toggle"
    />
  );
}
