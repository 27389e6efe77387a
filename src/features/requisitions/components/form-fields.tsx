import { memo, useCallback } from 'react';
import type { FieldDef, RequisitionWireKey } from '@/domain';
import type {
  ChoiceKey,
  LayoutEntry,
  RequisitionMode,
  SectionName,
} from '@/features/requisitions/model/form-layout';
import {
  alternativeFields,
  choiceMeta,
  isRequired,
  sectionEntries,
} from '@/features/requisitions/model/form-layout';
import { datalistId, suggestionKeyOf } from '@/features/requisitions/model/suggestions';
import { CatalogField } from '@/shared/form/catalog-field';
import { ChoiceGroup } from '@/shared/form/choice-group';
import { sectionHeadingId } from '@/shared/form/form-nav';

/** Blank in a select: on Amend it leaves the value unchanged (decision 000). */
function blankLabel(mode: RequisitionMode): string {
  return mode === 'amend' ? 'Leave unchanged' : 'Not set';
}

/** One catalog field as the requisition form shows it. */
export const RequisitionField = memo(function RequisitionField({
  def,
  mode,
  requiredOverride,
}: {
  def: FieldDef<RequisitionWireKey>;
  mode: RequisitionMode;
  requiredOverride?: boolean;
}) {
  const suggestion = suggestionKeyOf(def.key);
  return (
    <CatalogField
      def={def}
      required={requiredOverride ?? isRequired(def, mode)}
      blankLabel={blankLabel(mode)}
      list={suggestion ? datalistId(suggestion) : undefined}
    />
  );
});

const ChoiceFields = memo(function ChoiceFields({
  choice,
  mode,
}: {
  choice: ChoiceKey;
  mode: RequisitionMode;
}) {
  const meta = choiceMeta[choice];
  const required = mode === 'insert' && meta.requiredForInsert;
  const renderAlternative = useCallback(
    (alternative: string) =>
      alternativeFields(choice, alternative).map((def) => (
        <RequisitionField key={def.key} def={def} mode={mode} requiredOverride={required} />
      )),
    [choice, mode, required],
  );
  return (
    <ChoiceGroup
      name={choice}
      legend={meta.legend}
      hint={meta.hint}
      options={meta.options}
      required={required}
      renderAlternative={renderAlternative}
    />
  );
});

/** One section of scalar fields and choices, in catalog order. */
export const FormSection = memo(function FormSection({
  section,
  mode,
}: {
  section: SectionName;
  mode: RequisitionMode;
}) {
  const entries = sectionEntries(section, mode);
  const headingId = sectionHeadingId(section);
  // Runs of plain fields share a grid; each choice is a block of its own between them.
  const blocks: Array<LayoutEntry[] | ChoiceKey> = [];
  for (const entry of entries) {
    if (entry.type === 'choice') blocks.push(entry.choice);
    else {
      const last = blocks[blocks.length - 1];
      if (Array.isArray(last)) last.push(entry);
      else blocks.push([entry]);
    }
  }
  return (
    <section className="form-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="form-section__title" tabIndex={-1}>
        {section}
      </h2>
      {blocks.map((block) =>
        Array.isArray(block) ? (
          <div key={block[0]?.type === 'field' ? block[0].def.key : 'fields'} className="form-grid">
            {block.map((entry) =>
              entry.type === 'field' ? (
                <RequisitionField key={entry.def.key} def={entry.def} mode={mode} />
              ) : null,
            )}
          </div>
        ) : (
          <ChoiceFields key={block} choice={block} mode={mode} />
        ),
      )}
    </section>
  );
});
