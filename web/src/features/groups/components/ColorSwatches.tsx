import { useLingui } from '@lingui/react/macro';
import { GROUP_COLORS } from '@tally/contract/constants';
import { Fieldset } from '#web/components/FormField';
import { colorName } from '#web/lib/color';

interface ColorSwatchesProps {
  value: string;
  onChange: (color: string) => void;
  name: string;
}

/** The 8 swatches (docs/product.md, Constants) as a radio group (arrow keys move between them). */
export function ColorSwatches({ value, onChange, name }: ColorSwatchesProps) {
  const { t } = useLingui();
  return (
    <Fieldset legend={t`Color`}>
      <div className="mt-2 flex flex-wrap gap-1 sm:gap-2">
        {GROUP_COLORS.map((color) => (
          <label key={color} className="relative cursor-pointer" title={colorName(color)}>
            <input
              type="radio"
              name={name}
              value={color}
              checked={value.toLowerCase() === color.toLowerCase()}
              onChange={() => onChange(color)}
              aria-label={colorName(color)}
              className="peer sr-only"
            />
            <span
              aria-hidden="true"
              className={
                'block h-8 w-8 rounded-full sm:h-9 sm:w-9 border-2 border-transparent ring-offset-2 ' +
                'ring-offset-white peer-checked:border-white peer-checked:ring-2 ' +
                'peer-checked:ring-slate-900 peer-focus-visible:outline-2 ' +
                'peer-focus-visible:outline-offset-4 peer-focus-visible:outline-blue-600 ' +
                'dark:ring-offset-slate-900 dark:peer-checked:border-slate-900 ' +
                'dark:peer-checked:ring-white dark:peer-focus-visible:outline-blue-300'
              }
              style={{ backgroundColor: color }}
            />
          </label>
        ))}
      </div>
    </Fieldset>
  );
}
