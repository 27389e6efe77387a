import type { ReactNode } from 'react';
import { memo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { fieldId } from './field-ids';

export interface ChoiceOption {
  value: string;
  label: string;
}

export interface ChoiceGroupProps {
  /** Form path of the choice, e.g. `reqownerBy`. */
  name: string;
  legend: string;
  hint?: string;
  options: readonly ChoiceOption[];
  required?: boolean;
  /** The fields of the alternative in use. */
  renderAlternative(value: string): ReactNode;
}

/** Only this part re-renders when the choice changes; the radios and the legend stay put. */
function Alternative({
  name,
  render,
}: {
  name: string;
  render: ChoiceGroupProps['renderAlternative'];
}) {
  const value: unknown = useWatch({ name });
  return <div className="choice__fields">{render(typeof value === 'string' ? value : '')}</div>;
}

/**
 * An either/or choice (spec rules 1, 3 and 8: req class by id or path, each person by id or
 * name, each accounting reference by code or id) as a radio group, followed by the fields of
 * the alternative chosen. The other alternative's values are kept in the form but never sent.
 */
export const ChoiceGroup = memo(function ChoiceGroup({
  name,
  legend,
  hint,
  options,
  required = false,
  renderAlternative,
}: ChoiceGroupProps) {
  const { register } = useFormContext();
  const hintElementId = `${fieldId(name)}-hint`;
  return (
    <fieldset className="choice" aria-describedby={hint ? hintElementId : undefined}>
      <legend className="choice__legend">
        {legend}
        {required ? <span className="field__required"> (required)</span> : null}
      </legend>
      {hint ? (
        <p id={hintElementId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <div className="choice__options">
        {options.map((option, index) => {
          const id = index === 0 ? fieldId(name) : `${fieldId(name)}-${option.value}`;
          return (
            <label key={option.value} className="radio" htmlFor={id}>
              <input id={id} type="radio" value={option.value} {...register(name)} />
              <span>{option.label}</span>
            </label>
          );
        })}
      </div>
      <Alternative name={name} render={renderAlternative} />
    </fieldset>
  );
});
