import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useCallback, useMemo, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import type { CandidateForm, RequisitionContext } from '@/domain';
import { candidateFormSchema, candidateFormToWire } from '@/domain';
import type { CandidateWarning } from '@/features/candidates/model/candidate-warnings';
import { warningsKey } from '@/features/candidates/model/candidate-warnings';
import type { TargetRequisition } from '@/features/candidates/model/target-requisition';
import { ErrorSummary, useSubmitSummary } from '@/shared/form/error-summary';
import type { FormProblem } from '@/shared/form/field-ids';
import { FormActions } from '@/shared/form/form-actions';
import {
  CandidateSection,
  TargetRequisitionContext,
  RequisitionRows,
  plainSections,
} from './candidate-fields';
import { acknowledgeName, CandidateWarnings } from './candidate-warnings';

/**
 * The candidate form's state: react-hook-form with the domain's candidate form schema, shaped by
 * the requisition when the portal knows it (a response to a skill it does not have is an error).
 */
type FormSchema = ReturnType<typeof candidateFormSchema>;
type FormInput = z.input<FormSchema>;
type FormOutput = z.output<FormSchema>;

export function useCandidateForm(
  defaultValues: CandidateForm,
  shape: RequisitionContext | undefined,
): UseFormReturn<FormInput, unknown, FormOutput> {
  const schema = useMemo(() => candidateFormSchema(shape), [shape]);
  return useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    shouldFocusError: false,
  });
}

/** What the warnings are computed from, as the user types. */
export type WarningFields = Pick<CandidateForm, 'requirementid' | 'candemail' | 'billrate'>;

export interface CandidateFormViewProps {
  form: UseFormReturn<CandidateForm>;
  requisition: TargetRequisition | null;
  submitLabel: string;
  warningsFor(fields: WarningFields): CandidateWarning[];
  onValid(values: CandidateForm): void;
  actions?: ReactNode;
  /** Above the form: "Draft restored", or which result row is being fixed. */
  notices?: ReactNode;
  preview?(toWire: (values: CandidateForm) => unknown): ReactNode;
  /** A field the VMS named when it refused this item: in the summary until it is changed. */
  flagged?: FormProblem | null;
}

function useWarnings(
  form: UseFormReturn<CandidateForm>,
  warningsFor: CandidateFormViewProps['warningsFor'],
) {
  const [requirementid, candemail, billrate] = useWatch({
    control: form.control,
    name: ['requirementid', 'candemail', 'billrate'],
  });
  return useMemo(
    () => warningsFor({ requirementid, candemail, billrate }),
    [warningsFor, requirementid, candemail, billrate],
  );
}

/**
 * The candidate form: the candidate's fields from the catalog, the requisition's skills and
 * questions, the error summary after a failed submit, and the warnings that must be acknowledged
 * before the candidate goes into the batch.
 */
export function CandidateFormView({
  form,
  requisition,
  submitLabel,
  warningsFor,
  onValid,
  actions,
  notices,
  preview,
  flagged = null,
}: CandidateFormViewProps) {
  const summary = useSubmitSummary<CandidateForm>();
  const warnings = useWarnings(form, warningsFor);
  const key = warningsKey(warnings);
  const [acknowledged, setAcknowledged] = useState<string | null>(null);
  const [ackMissing, setAckMissing] = useState(false);

  const toWire = useCallback((values: CandidateForm) => candidateFormToWire(values), []);

  return (
    <FormProvider {...form}>
      <TargetRequisitionContext value={requisition}>
        {notices}
        <form
          className="requisition-form"
          noValidate
          aria-label="Candidate"
          onSubmit={(event) =>
            void form.handleSubmit((values) => {
              if (warnings.length > 0 && acknowledged !== key) {
                setAckMissing(true);
                // The warnings themselves, so the summary says what is wrong.
                summary.report([
                  {
                    name: acknowledgeName,
                    message: `${warnings.map((warning) => warning.message).join(' ')} To add the candidate anyway, tick the box under ${warnings.length === 1 ? 'the warning' : 'the warnings'}.`,
                  },
                ]);
                return;
              }
              setAckMissing(false);
              setAcknowledged(null);
              summary.clear();
              onValid(values);
            }, summary.onInvalid)(event)
          }
        >
          <ErrorSummary {...summary.props(flagged)} />
          <p className="form-note">
            Fields marked (required) must be filled.{' '}
            <span className="wire-name-note">
              Each label shows the field’s wire name after the dot.
            </span>
          </p>
          {plainSections.map((section) => (
            <CandidateSection key={section} section={section} />
          ))}
          <RequisitionRows requisition={requisition} />
          <CandidateSection section="Custom fields" />
          {preview?.(toWire)}
          <CandidateWarnings
            warnings={warnings}
            acknowledged={warnings.length > 0 && acknowledged === key}
            missing={ackMissing && acknowledged !== key}
            onAcknowledge={(checked) => setAcknowledged(checked ? key : null)}
          />
          <FormActions submitLabel={submitLabel}>{actions}</FormActions>
        </form>
      </TargetRequisitionContext>
    </FormProvider>
  );
}
