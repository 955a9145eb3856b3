// The access check as the pages use it: `guard` runs a feature's action only when the device may use it, else
// shows the spec's message (the domain catalogue, in the user's language) and leaves the feature closed.
import { type MessageKey, translate } from '@carhere/domain';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type AccessSubject, accessRefusal, type DeviceFeature } from './access.ts';

/** The message's class, for the browser tests. */
export const ACCESS_REFUSED_CLASS = 'device-access-refused';

export function useDeviceAccess() {
  const { message } = App.useApp();
  const { i18n } = useTranslation();
  const lang = i18n.language;

  const refuse = useCallback(
    (key: MessageKey) => {
      // One message at a time: clicking again replaces it instead of stacking copies.
      void message.warning({
        key: ACCESS_REFUSED_CLASS,
        className: ACCESS_REFUSED_CLASS,
        content: translate(key, lang),
      });
    },
    [message, lang],
  );

  /** Runs `action` when `feature` may be used on `device`; otherwise shows why. Answers whether it ran. */
  const guard = useCallback(
    (feature: DeviceFeature, device: AccessSubject | null | undefined, action: () => void): boolean => {
      const refusal = accessRefusal(feature, device, Date.now());
      if (refusal) {
        refuse(refusal);
        return false;
      }
      action();
      return true;
    },
    [refuse],
  );

  return { guard, refuse };
}
