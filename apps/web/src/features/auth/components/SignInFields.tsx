import { type InputHTMLAttributes, type ReactNode, type Ref, useId, useState } from 'react';
import classes from './SignInFields.module.css';

/**
 * The sign-in screen's controls in plain React, drawn like the Mantine ones of the other screens: the
 * screen shows before Mantine is downloaded (src/main.tsx). Same roles and names: a labelled input
 * (a required one's label ends with an asterisk, hidden from screen readers), its description and its
 * error under it, tied by aria-describedby.
 */
interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: string;
  description?: ReactNode;
  error?: ReactNode;
  ref?: Ref<HTMLInputElement>;
  /** Beside the input, inside its box (the password's show/hide button). */
  right?: ReactNode;
}

export function TextField({ label, description, error, required, right, id, ...input }: FieldProps) {
  const own = useId();
  const inputId = id ?? own;
  const describedBy = [description && `${inputId}-description`, error && `${inputId}-error`].filter(Boolean);
  return (
    <div className={classes.field}>
      <label className={classes.label} htmlFor={inputId}>
        {label}
        {required ? (
          <span className={classes.required} aria-hidden>
            {' *'}
          </span>
        ) : null}
      </label>
      <div className={classes.box}>
        <input
          {...input}
          id={inputId}
          required={required}
          className={classes.input}
          data-with-right={right ? true : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy.length ? describedBy.join(' ') : undefined}
        />
        {right}
      </div>
      {description ? (
        <p className={classes.description} id={`${inputId}-description`}>
          {description}
        </p>
      ) : null}
      {error ? (
        <p className={classes.error} id={`${inputId}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A password input whose show/hide toggle is a real, keyboard-reachable button named for what it will
 * do: "Show password" or "Hide password" (the name changes with the state, so no aria-pressed).
 */
export function PasswordField({
  showLabel,
  hideLabel,
  ...props
}: FieldProps & { showLabel: string; hideLabel: string }) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      right={
        <button
          type="button"
          className={classes.toggle}
          aria-label={visible ? hideLabel : showLabel}
          // The input keeps the focus (and the caret) when the toggle is clicked.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => setVisible((v) => !v)}
        >
          <svg viewBox="0 0 15 15" width="15" height="15" aria-hidden>
            {visible ? (
              <path d="M13.35 1.65a.5.5 0 0 1 0 .7l-11 11a.5.5 0 0 1-.7-.7l1.8-1.8C2.2 9.9 1.2 8.8.6 7.7a.5.5 0 0 1 0-.4C1.8 5 4.4 3 7.5 3c1.1 0 2.2.3 3.1.7l2.05-2.05a.5.5 0 0 1 .7 0ZM9.8 4.5A5.6 5.6 0 0 0 7.5 4C5 4 2.9 5.5 1.6 7.5c.6.9 1.4 1.8 2.5 2.4l1.3-1.3a2.5 2.5 0 0 1 3.4-3.4l1-.7Zm2.4 1.1.7-.7c.6.6 1.1 1.3 1.5 2.4a.5.5 0 0 1 0 .4C13.2 10 10.6 12 7.5 12c-.8 0-1.5-.1-2.2-.3l.8-.8c.5.1.9.1 1.4.1 2.5 0 4.6-1.5 5.9-3.5-.3-.6-.7-1.3-1.2-1.9Z" />
            ) : (
              <path d="M7.5 11C4.8 11 2.8 9.3 1.6 7.5 2.8 5.7 4.8 4 7.5 4s4.7 1.7 5.9 3.5C12.2 9.3 10.2 11 7.5 11Zm0-8C4.4 3 1.8 5 .6 7.3a.5.5 0 0 0 0 .4C1.8 10 4.4 12 7.5 12s5.7-2 6.9-4.3a.5.5 0 0 0 0-.4C13.2 5 10.6 3 7.5 3Zm0 6a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3Zm0 1a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z" />
            )}
          </svg>
        </button>
      }
    />
  );
}

/** A labelled native select (the country a phone number is read in). */
export function SelectField({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className={classes.field}>
      <label className={classes.label} htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={`${classes.input} ${classes.select}`}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A notice on the page (role alert, so a screen reader says it when it appears). */
export function Notice({
  tone,
  title,
  children,
  testId,
}: {
  tone: 'green' | 'blue' | 'yellow' | 'red';
  title?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div role="alert" className={classes.notice} data-tone={tone} data-testid={testId}>
      {title ? <p className={classes.noticeTitle}>{title}</p> : null}
      <div>{children}</div>
    </div>
  );
}

/**
 * A link drawn as an anchor or, with `button`, as a small filled button. Followed from the sign-in entry,
 * the full app downloads first (seconds on 2G): the link shows a spinner and is busy until it opens.
 */
export function LinkTo({
  href,
  go,
  children,
  button,
}: {
  href: string;
  go: (to: string) => void;
  children: ReactNode;
  button?: boolean;
}) {
  const [opening, setOpening] = useState(false);
  return (
    <a
      href={href}
      className={button ? `${classes.button} ${classes.small}` : classes.link}
      aria-busy={opening || undefined}
      data-loading={(button && opening) || undefined}
      onClick={(event) => {
        // A new tab or window (a modifier key, another button) is the browser's to open.
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        setOpening(true);
        go(href);
      }}
    >
      {button ? <span className={classes.buttonLabel}>{children}</span> : children}
      {opening ? <span className={button ? classes.spinner : classes.linkSpinner} aria-hidden /> : null}
    </a>
  );
}

/** The form's submit button; while `loading`, a spinner over its (kept) name, and disabled. */
export function SubmitButton({ loading, children }: { loading: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      className={classes.button}
      disabled={loading}
      aria-busy={loading || undefined}
      data-loading={loading || undefined}
    >
      <span className={classes.buttonLabel}>{children}</span>
      {loading ? <span className={classes.spinner} aria-hidden /> : null}
    </button>
  );
}
