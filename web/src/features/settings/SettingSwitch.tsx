import { useId, type ReactNode } from 'react';

type SettingSwitchProps = {
  label: string;
  description: string;
  checked: boolean;
  disabled?: boolean;
  badge?: ReactNode;
  onChange: (checked: boolean) => void;
};

/** A labelled daisyUI toggle with a switch role, so screen readers announce on/off. */
export function SettingSwitch({ label, description, checked, disabled = false, badge, onChange }: SettingSwitchProps) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 py-2">
      <div className="min-w-0">
        <label htmlFor={id} className="flex items-center gap-2 font-medium">
          {label}
          {badge}
        </label>
        <p id={`${id}-description`} className="text-sm text-base-content/70">
          {description}
        </p>
      </div>
      <input
        id={id}
        type="checkbox"
        // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox exposes its checked state; aria-checked would duplicate it
        role="switch"
        className="toggle toggle-primary"
        checked={checked}
        disabled={disabled}
        aria-describedby={`${id}-description`}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}
