import type { ReactNode } from 'react';
import { createContext, memo, use } from 'react';
import { useWatch } from 'react-hook-form';
import type { CandidateWireKey, FieldDef } from '@/domain';
import {
  MAX_ANSWERS,
  MAX_SKILL_RESPONSES,
  answerKey,
  blankSkillResponseRow,
  candidateCatalog,
  candidateField,
  skillResponseKey,
  skillResponseParts,
} from '@/domain';
import { candidateSections } from '@/domain/candidate-catalog';
import { billRateNote } from '@/features/candidates/model/bill-rate';
import type { TargetRequisition } from '@/features/candidates/model/target-requisition';
import { CatalogField } from '@/shared/form/catalog-field';
import { sectionHeadingId } from '@/shared/form/form-nav';
import { RepeatingRows, RowItem, RowsSection } from '@/shared/form/repeating-rows';

/** The requisition the form submits to, for the fields that say something about it. */
export const TargetRequisitionContext = createContext<TargetRequisition | null>(null);

/** The bill rate with the requisition's band and cap beside it, warning as the rate is typed. */
function BillRateField({ field }: { field: FieldDef<CandidateWireKey> }) {
  const requisition = use(TargetRequisitionContext);
  const typed: unknown = useWatch({ name: field.key });
  const note = billRateNote(requisition, typeof typed === 'string' ? typed : '');
  const hint = note
    ? [field.hint, note.band, note.warning ? `Warning: ${note.warning}` : null]
        .filter(Boolean)
        .join(' ')
    : undefined;
  return <CatalogField def={field} required={field.requirement === 'required'} hint={hint} />;
}

/** The candidate form's sections of plain fields (the others are the target and rows). */
export const plainSections = candidateSections.filter(
  (section) => !['Requisition', 'Skills', 'Questions', 'Custom fields'].includes(section),
);

function def(key: CandidateWireKey): FieldDef<CandidateWireKey> {
  const found = candidateField(key);
  if (!found) throw new Error(`The candidate catalog has no field ${key}`);
  return found;
}

/** Scalar fields of a section; the Req ID is the page's chosen requisition, not a field. */
function sectionFields(section: string): Array<FieldDef<CandidateWireKey>> {
  return candidateCatalog.filter(
    (field) =>
      field.section === section &&
      field.key !== 'requirementid' &&
      (field.row === undefined || field.row.group === 'customfields'),
  );
}

function CandidateField({ field }: { field: FieldDef<CandidateWireKey> }) {
  if (field.key === 'billrate') return <BillRateField field={field} />;
  return <CatalogField def={field} required={field.requirement === 'required'} />;
}

/** The explanation is asked for, and required, only when the citizenship status is Other. */
function CitizenshipExplain() {
  const status: unknown = useWatch({ name: 'candcitizenshipstatus' });
  if (status !== 'Other') return null;
  return <CatalogField def={def('candcitizenshipexplain')} required />;
}

export const CandidateSection = memo(function CandidateSection({ section }: { section: string }) {
  const headingId = sectionHeadingId(section);
  return (
    <section className="form-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="form-section__title">
        {section}
      </h2>
      <div className="form-grid">
        {sectionFields(section).map((field) =>
          field.key === 'candcitizenshipexplain' ? (
            <CitizenshipExplain key={field.key} />
          ) : (
            <CandidateField key={field.key} field={field} />
          ),
        )}
      </div>
    </section>
  );
});

function skillResponseFields(index: number) {
  return skillResponseParts.map((part) => (
    <CatalogField
      key={part}
      def={def(skillResponseKey(part, index + 1))}
      name={`skillResponses.${index}.${part}`}
    />
  ));
}

function answerField(index: number, question?: string) {
  return (
    <CatalogField
      def={def(answerKey(index + 1))}
      name={`answers.${index}.answer`}
      hint={question === undefined ? null : question || 'The requisition gives no text for it.'}
    />
  );
}

/** One fixed row per item the requisition asks for: no add, remove or move. */
function FixedRows({
  title,
  hint,
  rows,
}: {
  title: string;
  hint: string;
  rows: ReadonlyArray<{ legend: string; note?: string; fields: ReactNode }>;
}) {
  return (
    <RowsSection title={title} hint={hint}>
      <ol className="rows">
        {rows.map((row) => (
          <RowItem key={row.legend} legend={row.legend} note={row.note} fields={row.fields} />
        ))}
      </ol>
    </RowsSection>
  );
}

const newAnswer = () => ({ answer: '' });

/** Generic rows for a requisition the portal does not know, added by the recruiter. */
const genericRows = [
  {
    name: 'skillResponses',
    title: 'Skill responses',
    noun: { one: 'skill response', many: 'skill responses' },
    max: MAX_SKILL_RESPONSES,
    newRow: blankSkillResponseRow,
    focusPart: 'response',
    renderRow: skillResponseFields,
  },
  {
    name: 'answers',
    title: 'Answers',
    noun: { one: 'question answer', many: 'question answers' },
    max: MAX_ANSWERS,
    newRow: newAnswer,
    focusPart: 'answer',
    renderRow: (index: number) => answerField(index),
  },
] as const;

/**
 * Skill responses and answers shaped by the requisition: one per skill and question it has, each
 * showing what it asks. For a requisition the portal does not know, generic rows the recruiter
 * adds (up to 10 and 5).
 */
export const RequisitionRows = memo(function RequisitionRows({
  requisition,
}: {
  requisition: TargetRequisition | null;
}) {
  if (!requisition) {
    return genericRows.map((rows) => (
      <RepeatingRows
        key={rows.name}
        {...rows}
        owner="A candidate"
        hint={`The portal does not know this requisition, so add one row per ${rows.name === 'answers' ? 'question' : 'skill'} it has, in its order.`}
      />
    ));
  }
  const { skills, questions } = requisition;
  return (
    <>
      {skills.length > 0 ? (
        <FixedRows
          title="Skills"
          hint={`Requisition ${requisition.reqId} asks about ${skills.length === 1 ? 'this skill' : `these ${skills.length} skills`}. A skill left without a response makes the candidate Incomplete.`}
          rows={skills.map((skill, index) => ({
            legend: `Skill ${index + 1}: ${skill.description || '(no description)'}`,
            note: [skill.level, skill.experience && `${skill.experience} of experience asked for`]
              .filter(Boolean)
              .join(' · '),
            fields: skillResponseFields(index),
          }))}
        />
      ) : null}
      {questions.length > 0 ? (
        <FixedRows
          title="Questions"
          hint={`Requisition ${requisition.reqId} asks ${questions.length === 1 ? 'this question' : `these ${questions.length} questions`}. A question left unanswered makes the candidate Incomplete.`}
          rows={questions.map((question, index) => ({
            legend: `Question ${index + 1}`,
            fields: answerField(index, question),
          }))}
        />
      ) : null}
      {skills.length === 0 && questions.length === 0 ? (
        <p className="form-note">
          Requisition {requisition.reqId} has no skills or questions to answer.
        </p>
      ) : null}
    </>
  );
});
