import type { SelectHTMLAttributes } from 'react';

export interface Option<T extends string | number> {
  value: T;
  label: string;
}

type NativeProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'>;

/**
 * A native select over a typed option list: the value handed to `onChange` is always one of the
 * options (the browser gives back a string; this finds the option it names).
 */
export function OptionSelect<T extends string | number>({
  value,
  options,
  onChange,
  ...native
}: NativeProps & { value: T; options: readonly Option<T>[]; onChange(value: T): void }) {
  return (
    <select
      {...native}
      value={value}
      onChange={(event) => {
        const next = options.find((option) => String(option.value) === event.target.value);
        if (next) onChange(next.value);
      }}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
