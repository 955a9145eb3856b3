// antd form rules backed by the domain's validators, with the domain's messages in the interface language.
import { type MessageParams, translate, type Validated } from '@carhere/domain';
import type { Rule } from 'antd/es/form';
import i18n from 'i18next';

/** The domain's text of a message key in the current language. */
export function domainText(key: string, params?: MessageParams): string {
  return translate(key, i18n.language || 'cn', params);
}

/** A rule that runs a domain validator on non-empty values. */
export function domainRule(validate: (value: unknown) => Validated<unknown>): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || String(value).trim() === '') return;
      const result = validate(value);
      if (!result.ok) throw new Error(domainText(result.message, result.params));
    },
  };
}

/** "{field} can't be empty" (spec §5) for a required text field (blank text counts as empty). */
export function requiredRule(field: string): Rule {
  return { required: true, whitespace: true, message: domainText('validation.required', { field }) };
}

/** "{field} can't be empty" for a required choice or number. */
export function requiredChoice(field: string): Rule {
  return { required: true, message: domainText('validation.required', { field }) };
}
