import { Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AnalysisResult } from '@kutu/contract';
import { ResultWithReview } from './ResultWithReview.tsx';

/** One past analysis in a dialog (Analysis History), loaded when the first one is opened. */
export default function ResultDialog({ result, onClose }: { result: AnalysisResult | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={result !== null} onClose={onClose} size="lg" title={t('analysis.history.resultTitle')}>
      {result && <ResultWithReview result={result} />}
    </Modal>
  );
}
