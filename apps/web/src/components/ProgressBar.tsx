import { Progress, type ProgressProps } from '@mantine/core';

/** Mantine's progress bar, in a chunk of its own (components/ProgressLater.tsx loads it). */
export default function ProgressBar(props: ProgressProps) {
  return <Progress {...props} />;
}
