/**
 * The browser benchmark's peer: the requisition catalog's fields as a plain
 * react-hook-form page: a label and an input (or select, or textarea) per field, "required" for
 * the Insert-required ones, and an error summary after a submit. No catalog rules, no drafts, no
 * tray: what a minimal form of the same fields costs in the same browser.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { useForm, type FieldErrors } from 'react-hook-form';
import { requisitionCatalog } from '@/domain/requisition-catalog';

type Values = Record<string, string>;

function Summary({ errors }: { errors: FieldErrors<Values> }) {
  const keys = Object.keys(errors);
  if (keys.length === 0) return null;
  return (
    <div role="alert">
      <h2>There is a problem</h2>
      <ul>
        {keys.map((key) => (
          <li key={key}>
            <a href={`#${key}`}>{String(errors[key]?.message ?? key)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

function MinimalForm() {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({ mode: 'onSubmit', reValidateMode: 'onChange' });
  return (
    <main>
      <h1>New requisition</h1>
      <Summary errors={errors} />
      <form noValidate onSubmit={(event) => void handleSubmit(() => undefined)(event)}>
        {requisitionCatalog.map((field) => {
          const rules = {
            required:
              field.requirement === 'insert' || field.requirement === 'insert-amend'
                ? `Enter ${field.label.toLowerCase()}`
                : false,
          };
          return (
            <p key={field.key}>
              <label htmlFor={field.key}>{field.label}</label>
              <br />
              {field.options ? (
                <select id={field.key} {...register(field.key, rules)}>
                  <option value="">Choose…</option>
                  {field.options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              ) : field.multiline ? (
                <textarea id={field.key} {...register(field.key, rules)} />
              ) : (
                <input id={field.key} {...register(field.key, rules)} />
              )}
              {errors[field.key] ? <span> {String(errors[field.key]?.message)}</span> : null}
            </p>
          );
        })}
        <button type="submit">Add to batch</button>
      </form>
    </main>
  );
}

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <MinimalForm />
    </StrictMode>,
  );
