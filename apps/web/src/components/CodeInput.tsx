import { useId } from 'react';
import { Input, PinInput } from '@mantine/core';

export interface CodeInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onComplete?: (value: string) => void;
  error?: string | null;
  autoFocus?: boolean;
}

/** The 4-digit one-time code: digits only, a pasted code fills every box. */
export function CodeInput({ label, value, onChange, onComplete, error, autoFocus }: CodeInputProps) {
  const id = useId();
  return (
    <Input.Wrapper label={label} error={error} required labelProps={{ id }}>
      <PinInput
        length={4}
        type="number"
        inputMode="numeric"
        oneTimeCode
        value={value}
        onChange={onChange}
        onComplete={onComplete}
        error={Boolean(error)}
        autoFocus={autoFocus}
        ariaLabel={label}
        getInputProps={(index) => ({ 'aria-label': `${label} ${index + 1}/4` }) as never}
        mt={4}
        size="md"
        role="group"
        aria-labelledby={id}
      />
    </Input.Wrapper>
  );
}
