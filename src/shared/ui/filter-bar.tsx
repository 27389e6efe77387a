import type { FormEvent, InputHTMLAttributes, ReactNode } from 'react';
import { createContext, use, useId } from 'react';
import { useAddressParams } from './use-address-params';

/**
 * A list's filters kept in the address (so reload and a shared link keep them): the values set,
 * whether any is, and the changes that apply a submitted form or clear them all. `alsoClear`
 * names parameters that go with a new filter (the call that was open).
 */
export function useAddressFilters<Key extends string>(
  keys: readonly Key[],
  alsoClear: readonly string[] = [],
) {
  const [params, setParams] = useAddressParams();
  const filters: Partial<Record<Key, string>> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  const cleared = () => Object.fromEntries([...keys, ...alsoClear].map((key) => [key, null]));
  return {
    filters,
    anyFilter: keys.some((key) => filters[key]),
    /** Changes each time the address does, so the form shows the filters it holds. */
    version: params.toString(),
    apply(data: FormData) {
      const changes: Record<string, string | null> = cleared();
      for (const key of keys) changes[key] = String(data.get(key) ?? '');
      setParams(changes);
    },
    clear: () => setParams(cleared()),
  };
}

type AddressFilters = ReturnType<typeof useAddressFilters<string>>;

const FilterContext = createContext<{ id: string; filters: Partial<Record<string, string>> }>({
  id: '',
  filters: {},
});

/**
 * The bar of filters above a list: labelled fields (FilterInput, FilterSelect, DateRange), the
 * button that applies them and, once any is set, "Clear filters". Each field starts from the
 * value in the address.
 */
export function FilterBar({
  label,
  submit,
  state,
  children,
}: {
  /** The form's accessible name ("Filter the calls"). */
  label: string;
  /** The button that applies the filters ("Show calls"). */
  submit: string;
  state: AddressFilters;
  children: ReactNode;
}) {
  const id = useId();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    state.apply(new FormData(event.currentTarget));
  };
  return (
    <form className="inspector__filters" aria-label={label} onSubmit={onSubmit} key={state.version}>
      <FilterContext value={{ id, filters: state.filters }}>{children}</FilterContext>
      <div className="button-row">
        <button type="submit" className="button">
          {submit}
        </button>
        {state.anyFilter ? (
          <button type="button" className="button button--secondary" onClick={state.clear}>
            Clear filters
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A filter typed in: its label and an input named after the filter's key. */
export function FilterInput({
  name,
  label,
  ...input
}: { name: string; label: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'name' | 'defaultValue'
>) {
  const { id, filters } = use(FilterContext);
  return (
    <>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input id={`${id}-${name}`} name={name} defaultValue={filters[name] ?? ''} {...input} />
    </>
  );
}

/** A filter chosen from a list, "Any" first (no filter). */
export function FilterSelect({
  name,
  label,
  options,
}: {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
}) {
  const { id, filters } = use(FilterContext);
  return (
    <>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <select id={`${id}-${name}`} name={name} defaultValue={filters[name] ?? ''}>
        <option value="">Any</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </>
  );
}

/** The days a list is narrowed to: From and To, as the `from` and `to` filters. */
export function DateRange() {
  return (
    <>
      <FilterInput name="from" label="From" type="date" />
      <FilterInput name="to" label="To" type="date" />
    </>
  );
}
