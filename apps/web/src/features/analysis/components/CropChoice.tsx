import { useId } from 'react';
import type { AnalysisCrop } from '@kutu/contract';
import { analysisCrops } from '@kutu/contract/enums';
import { useTranslation } from 'react-i18next';
import classes from './CropChoice.module.css';

/**
 * The crop of the leaves: a group of the browser's radio buttons drawn as Mantine's SegmentedControl was,
 * which the upload screen no longer downloads (decision 0121). Named by the label `labelledBy` points at.
 */
export function CropChoice({
  value,
  onChange,
  disabled,
  labelledBy,
}: {
  value: AnalysisCrop;
  onChange: (crop: AnalysisCrop) => void;
  disabled: boolean;
  labelledBy: string;
}) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <div role="radiogroup" aria-labelledby={labelledBy} className={classes.root} data-testid="crop-choice">
      {analysisCrops.map((crop) => (
        <label key={crop} className={classes.label}>
          <input
            type="radio"
            className={classes.input}
            name={name}
            value={crop}
            checked={value === crop}
            disabled={disabled}
            onChange={() => onChange(crop)}
          />
          {t(`review.crop.${crop}`)}
        </label>
      ))}
    </div>
  );
}
