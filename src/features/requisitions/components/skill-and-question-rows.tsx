import { memo, useCallback } from 'react';
import type { RequisitionWireKey } from '@/domain';
import {
  MAX_QUESTIONS,
  MAX_SKILLS,
  blankSkillRow,
  questionKey,
  requisitionField,
  skillKey,
  skillRowParts,
} from '@/domain';
import { datalistId } from '@/features/requisitions/model/suggestions';
import { CatalogField } from '@/shared/form/catalog-field';
import { RepeatingRows } from '@/shared/form/repeating-rows';

const skillParts = skillRowParts;

function def(key: RequisitionWireKey) {
  const found = requisitionField(key);
  if (!found) throw new Error(`The requisition catalog has no field ${key}`);
  return found;
}

const newQuestion = () => ({ description: '' });

/** Skill rows 1–10: the labels and wire names follow the row's position. */
export const SkillRows = memo(function SkillRows() {
  const renderRow = useCallback(
    (index: number) =>
      skillParts.map((part) => (
        <CatalogField
          key={part}
          def={def(skillKey(part, index + 1))}
          name={`skills.${index}.${part}`}
          list={part === 'expertiserating' ? datalistId('expertiserating') : undefined}
        />
      )),
    [],
  );
  return (
    <RepeatingRows
      name="skills"
      title="Skills"
      noun={{ one: 'skill', many: 'skills' }}
      owner="A requisition"
      max={MAX_SKILLS}
      hint="Numbered by their order: removing or moving a row renumbers the rows after it. On Amend, any skill given replaces all of the requisition's skills."
      newRow={blankSkillRow}
      focusPart="description"
      renderRow={renderRow}
    />
  );
});

export const QuestionRows = memo(function QuestionRows() {
  const renderRow = useCallback(
    (index: number) => (
      <CatalogField
        def={def(questionKey('description', index + 1))}
        name={`questions.${index}.description`}
      />
    ),
    [],
  );
  return (
    <RepeatingRows
      name="questions"
      title="Questions"
      noun={{ one: 'question', many: 'questions' }}
      owner="A requisition"
      max={MAX_QUESTIONS}
      hint="Questions candidates answer when they are submitted; numbered by their order."
      newRow={newQuestion}
      focusPart="description"
      renderRow={renderRow}
    />
  );
});
