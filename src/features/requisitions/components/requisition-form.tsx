import type { ReactNode } from 'react';
import { useCallback, useDeferredValue, useMemo } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { FormProvider, useForm } from 'react-hook-form';
import type { z } from 'zod';
import type { DateFormat, LoadedRecord, RequisitionForm } from '@/domain';
import {
  amendWire,
  requisitionFormSchema,
  requisitionFormToWire,
  requisitionWireToForm,
} from '@/domain';
import type { RequisitionMode } from '@/features/requisitions/model/form-layout';
import { sectionOfPath, sectionOrder } from '@/features/requisitions/model/form-layout';
import type { OrgScope } from '@/shared/api/vms';
import { LoadedValuesContext } from '@/shared/form/cleared-note';
import { ErrorSummary, useSubmitSummary } from '@/shared/form/error-summary';
import type { FormProblem } from '@/shared/form/field-ids';
import { fieldRevalidationResolver } from '@/shared/form/field-revalidation';
import { FormActions } from '@/shared/form/form-actions';
import { FormNav, sectionHeadingId } from '@/shared/form/form-nav';
import { FormSection } from './form-fields';
import { RequisitionDatalists } from './requisition-datalists';
import { QuestionRows, SkillRows } from './skill-and-question-rows';

/**
 * The requisition form's state: react-hook-form with the domain's form schema through
 * zodResolver (one set of rules for the form, the validator, the proxy and the sandbox).
 * Validated on submit, then again as each field changes (the rules only, not the shape of every
 * field: fieldRevalidationResolver). Focus goes to the error summary, not
 * the first field (GOV.UK pattern).
 */
type FormInput = z.input<typeof requisitionFormSchema>;
type FormOutput = z.output<typeof requisitionFormSchema>;
const resolver = fieldRevalidationResolver(requisitionFormSchema);

export function useRequisitionForm(
  defaultValues?: RequisitionForm,
): UseFormReturn<FormInput, unknown, FormOutput> {
  return useForm<FormInput, unknown, FormOutput>({
    resolver,
    ...(defaultValues ? { defaultValues } : {}),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    shouldFocusError: false,
  });
}

export interface RequisitionFormViewProps {
  form: UseFormReturn<RequisitionForm>;
  mode: RequisitionMode;
  orgs: OrgScope;
  dateFormat: DateFormat;
  submitLabel: string;
  /** Called with the values of a valid form (the form does not reset itself). */
  onValid(values: RequisitionForm): void;
  /** Buttons beside the submit button, e.g. "Cancel editing". */
  actions?: ReactNode;
  /** Above the form: "Draft restored", or which result row is being fixed. */
  notices?: ReactNode;
  /** The VMS record an Amend was loaded from: the form sends only what differs from it. */
  loaded?: LoadedRecord | undefined;
  /** A JSON preview rendered by the caller (it knows the payload kind's download name). */
  preview?(toWire: (values: RequisitionForm) => unknown): ReactNode;
  /** A field the VMS named when it refused this item: in the summary until it is changed. */
  flagged?: FormProblem | null;
  /** Only the first section, as the page's prerendered shell shows it (decision 040). */
  shell?: boolean;
}

const navSections = sectionOrder.map((title) => ({ id: sectionHeadingId(title), title }));

const scalarSections = sectionOrder.filter(
  (section) => section !== 'Skills' && section !== 'Questions' && section !== 'Custom fields',
);

/**
 * The requisition form, Insert or Amend, built from the catalog: sections, either/or choices,
 * skill and question rows, inline messages and, after a failed submit, the error summary.
 */
export function RequisitionFormView({
  form,
  mode,
  orgs,
  dateFormat,
  submitLabel,
  onValid,
  actions,
  notices,
  preview,
  loaded,
  flagged = null,
  shell = false,
}: RequisitionFormViewProps) {
  const summary = useSubmitSummary<RequisitionForm>();

  // A loaded Amend previews (and sends) only its changes (decision 003).
  const toWire = useCallback(
    (values: RequisitionForm) => {
      const wire = requisitionFormToWire(values, dateFormat);
      return loaded ? amendWire(loaded.values, wire) : wire;
    },
    [dateFormat, loaded],
  );
  const loadedValues = useMemo(() => {
    if (!loaded) return null;
    const form = requisitionWireToForm(loaded.values, dateFormat);
    const values: Record<string, string> = {};
    for (const [key, value] of Object.entries(form)) {
      if (typeof value === 'string') values[key] = value;
    }
    return values;
  }, [loaded, dateFormat]);

  // The first section is drawn at once; the rest of this ~6,000 px form follows in a background
  // render right after, so the page appears without waiting for fields far below the fold. The
  // prerendered shell is the first section alone.
  const restShown = useDeferredValue(true, false) && !shell;

  return (
    <FormProvider {...form}>
      <LoadedValuesContext.Provider value={loadedValues}>
        {notices}
        <form
          className="requisition-form"
          noValidate
          aria-label={mode === 'insert' ? 'New requisition' : 'Amend requisition'}
          onSubmit={(event) =>
            void form.handleSubmit((values) => {
              summary.clear();
              onValid(values);
            }, summary.onInvalid)(event)
          }
        >
          <FormNav sections={navSections} sectionOf={sectionOfPath} />
          <ErrorSummary {...summary.props(flagged)} />
          <p className="form-note">
            {mode === 'insert'
              ? 'Fields marked (required) must be filled for a new requisition.'
              : 'An Amend changes only the fields that are filled in; blank fields stay as they are.'}{' '}
            <span className="wire-name-note">
              Each label shows the field’s wire name after the dot.
            </span>
          </p>
          {(restShown ? scalarSections : scalarSections.slice(0, 1)).map((section) => (
            <FormSection key={section} section={section} mode={mode} />
          ))}
          {restShown ? (
            <>
              <SkillRows />
              <QuestionRows />
              <FormSection section="Custom fields" mode={mode} />
              <RequisitionDatalists orgs={orgs} />
              {preview?.(toWire)}
            </>
          ) : null}
          <FormActions submitLabel={submitLabel}>{actions}</FormActions>
        </form>
      </LoadedValuesContext.Provider>
    </FormProvider>
  );
}
