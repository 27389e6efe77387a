import { useId, useState } from 'react';
import type { FilterField, FilterOperator, RequisitionFilter } from '@/shared/requisitions';
import { filterFields, filterOperators } from '@/shared/requisitions';
import { OptionSelect } from '@/shared/ui/option-select';
import { useInPageShell } from '@/shared/ui/page-shell-context';

/** The filter in the address (?field=Req_Id&op=%3D&value=40001), so reload and links keep it. */
export function readFilter(params: URLSearchParams): RequisitionFilter | null {
  const field = filterFields.find((option) => option.value === params.get('field'))?.value;
  const operator = filterOperators.find((option) => option.value === params.get('op'))?.value;
  const value = params.get('value')?.trim() ?? '';
  return field && operator && value !== '' ? { field, operator, value } : null;
}

export function describeFilter(filter: RequisitionFilter): string {
  const field = filterFields.find((option) => option.value === filter.field)?.label ?? filter.field;
  return `${field} ${filter.operator} ${filter.value}`;
}

export function FilterForm({
  filter,
  onApply,
  onClear,
}: {
  filter: RequisitionFilter | null;
  onApply(filter: RequisitionFilter): void;
  onClear(): void;
}) {
  const [field, setField] = useState<FilterField>(filter?.field ?? 'Req_Id');
  const [operator, setOperator] = useState<FilterOperator>(filter?.operator ?? '=');
  const [value, setValue] = useState(filter?.value ?? '');
  const [problem, setProblem] = useState('');
  const ids = { field: useId(), operator: useId(), value: useId(), problem: useId() };
  // The prerendered list's filter cannot be applied until the app's replaces it.
  const inShell = useInPageShell();

  return (
    <form
      className="filters"
      aria-label="Filter requisitions"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const trimmed = value.trim();
        if (field === 'Req_Id' && !/^\d+$/.test(trimmed)) {
          setProblem('Enter a Req ID as a whole number, for example 40001.');
          return;
        }
        if (field !== 'Req_Id' && !/^\d{4}-\d{2}-\d{2}$/.test(trimmed)) {
          setProblem('Choose a date to filter by.');
          return;
        }
        setProblem('');
        onApply({ field, operator, value: trimmed });
      }}
    >
      <div className="field">
        <label htmlFor={ids.field} className="field__label">
          Filter by
        </label>
        <OptionSelect<FilterField>
          id={ids.field}
          value={field}
          options={filterFields}
          onChange={(next) => {
            setField(next);
            setValue('');
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.operator} className="field__label">
          Operator
        </label>
        <OptionSelect<FilterOperator>
          id={ids.operator}
          value={operator}
          options={filterOperators}
          onChange={setOperator}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.value} className="field__label">
          {field === 'Req_Id' ? 'Req ID' : 'Date (UTC)'}
        </label>
        <input
          id={ids.value}
          type={field === 'Req_Id' ? 'text' : 'date'}
          inputMode={field === 'Req_Id' ? 'numeric' : undefined}
          value={value}
          aria-invalid={problem ? true : undefined}
          aria-describedby={ids.problem}
          onChange={(event) => setValue(event.target.value)}
        />
        <p id={ids.problem} className="field__error">
          {problem}
        </p>
      </div>
      <div className="button-row filters__actions">
        <button type="submit" className="button button--secondary" disabled={inShell}>
          Apply filter
        </button>
        {filter ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setValue('');
              setProblem('');
              onClear();
            }}
          >
            Clear filter
          </button>
        ) : null}
      </div>
    </form>
  );
}
