import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';

/** Form controls with their labels and hints tied to them, so every control has an accessible name. */

interface FieldProps {
  label: string;
  hint?: ComponentChildren;
  error?: string;
}

function FieldFrame({ id, label, hint, error, children }: FieldProps & { id: string; children: ComponentChildren }) {
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

const describedBy = (id: string, props: FieldProps) =>
  [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

export function TextField(
  props: FieldProps & {
    value: string;
    onInput(value: string): void;
    type?: 'text' | 'email' | 'password' | 'number' | 'url' | 'date' | 'datetime-local';
    required?: boolean;
    placeholder?: string;
    autoComplete?: string;
    min?: number;
    max?: number;
    /** A number field's granularity; the browser's default, 1, refuses fractions. */
    step?: number;
    maxLength?: number;
    name?: string;
    onChange?(value: string): void;
  },
) {
  const id = useId();
  return (
    <FieldFrame id={id} {...props}>
      <input
        id={id}
        name={props.name}
        type={(props.type ?? 'text') as 'text'}
        value={props.value}
        required={props.required}
        placeholder={props.placeholder}
        autoComplete={props.autoComplete}
        min={props.min}
        max={props.max}
        step={props.step}
        maxLength={props.maxLength}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props)}
        onInput={(event) => props.onInput(event.currentTarget.value)}
        onChange={props.onChange && ((event) => props.onChange!(event.currentTarget.value))}
      />
    </FieldFrame>
  );
}

/** A text field whose value counts once typed out (on Enter or on leaving it), for what each value costs a request (a list's filters). */
export function CommitField(props: Omit<Parameters<typeof TextField>[0], 'onInput' | 'onChange'> & { onCommit(value: string): void }) {
  const [text, setText] = useState(props.value);
  useEffect(() => setText(props.value), [props.value]);
  return <TextField {...props} value={text} onInput={setText} onChange={(typed) => typed !== props.value && props.onCommit(typed)} />;
}

export function TextArea(props: FieldProps & { value: string; onInput(value: string): void; rows?: number; maxLength?: number; placeholder?: string }) {
  const id = useId();
  return (
    <FieldFrame id={id} {...props}>
      <textarea
        id={id}
        rows={props.rows ?? 3}
        value={props.value}
        maxLength={props.maxLength}
        placeholder={props.placeholder}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy(id, props)}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
    </FieldFrame>
  );
}

const entriesOf = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

/** A list edited one entry per line (terms, authors, subreddits, feeds); blank lines and surrounding spaces are dropped. */
export function LinesField(props: FieldProps & { value: string[]; onChange(value: string[]): void; rows?: number; placeholder?: string }) {
  const [text, setText] = useState(props.value.join('\n'));
  // A list changed from outside (a suggestion applied, a reset) replaces what is typed.
  useEffect(() => {
    if (JSON.stringify(entriesOf(text)) !== JSON.stringify(props.value)) setText(props.value.join('\n'));
  }, [props.value]);
  return (
    <TextArea
      {...props}
      rows={props.rows ?? 3}
      value={text}
      hint={props.hint ?? 'One per line'}
      onInput={(typed) => {
        setText(typed);
        props.onChange(entriesOf(typed));
      }}
    />
  );
}

/** `required`: the browser refuses to submit the form while the chosen option's value is empty (a "Choose …" first option). */
export function SelectField<T extends string>(props: FieldProps & { value: NoInfer<T>; options: readonly (readonly [T, string])[]; onChange(value: NoInfer<T>): void; required?: boolean }) {
  const id = useId();
  return (
    <FieldFrame id={id} {...props}>
      <select id={id} value={props.value} required={props.required} aria-describedby={describedBy(id, props)} onChange={(event) => props.onChange(event.currentTarget.value as T)}>
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

export function Checkbox({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange(checked: boolean): void; hint?: string }) {
  const id = useId();
  return (
    <div class="checkbox">
      <input id={id} type="checkbox" checked={checked} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(event) => onChange(event.currentTarget.checked)} />
      <label for={id}>{label}</label>
      {hint && (
        <span class="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
    </div>
  );
}

/** A group of checkboxes for a set of values, named by a legend. */
export function CheckboxGroup<T extends string>({ legend, options, value, onChange }: { legend: string; options: readonly (readonly [T, string])[]; value: readonly NoInfer<T>[]; onChange(value: NoInfer<T>[]): void }) {
  return (
    <fieldset class="checkbox-group">
      <legend>{legend}</legend>
      {options.map(([option, label]) => (
        <Checkbox
          key={option}
          label={label}
          checked={value.includes(option)}
          onChange={(checked) => onChange(checked ? [...value, option] : value.filter((item) => item !== option))}
        />
      ))}
    </fieldset>
  );
}
