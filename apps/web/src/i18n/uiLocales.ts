// antd's and dayjs's locales follow the interface language. Chinese and English are bundled; the other nine
// are loaded with the language (English until they arrive).
import type { Locale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect, useState } from 'react';
import type { Language } from './index.ts';

interface UiLocale {
  antd: () => Promise<Locale>;
  dayjs: string;
  loadDayjs: () => Promise<unknown>;
}

const antdDefault = (m: { default: Locale }) => m.default;

const LOCALES: Record<Exclude<Language, 'cn' | 'en'>, UiLocale> = {
  vi: {
    antd: () => import('antd/locale/vi_VN').then(antdDefault),
    dayjs: 'vi',
    loadDayjs: () => import('dayjs/locale/vi'),
  },
  fr: {
    antd: () => import('antd/locale/fr_FR').then(antdDefault),
    dayjs: 'fr',
    loadDayjs: () => import('dayjs/locale/fr'),
  },
  pt: {
    antd: () => import('antd/locale/pt_PT').then(antdDefault),
    dayjs: 'pt',
    loadDayjs: () => import('dayjs/locale/pt'),
  },
  'en-IN': {
    antd: () => import('antd/locale/en_GB').then(antdDefault),
    dayjs: 'en-in',
    loadDayjs: () => import('dayjs/locale/en-in'),
  },
  es: {
    antd: () => import('antd/locale/es_ES').then(antdDefault),
    dayjs: 'es',
    loadDayjs: () => import('dayjs/locale/es'),
  },
  km: {
    antd: () => import('antd/locale/km_KH').then(antdDefault),
    dayjs: 'km',
    loadDayjs: () => import('dayjs/locale/km'),
  },
  th: {
    antd: () => import('antd/locale/th_TH').then(antdDefault),
    dayjs: 'th',
    loadDayjs: () => import('dayjs/locale/th'),
  },
  ru: {
    antd: () => import('antd/locale/ru_RU').then(antdDefault),
    dayjs: 'ru',
    loadDayjs: () => import('dayjs/locale/ru'),
  },
  my: {
    antd: () => import('antd/locale/my_MM').then(antdDefault),
    dayjs: 'my',
    loadDayjs: () => import('dayjs/locale/my'),
  },
};

function bundled(language: string): Locale | null {
  if (language === 'cn') return zhCN;
  if (language === 'en') return enUS;
  return null;
}

/** The antd locale of a language; also switches dayjs (dates in pickers and formatted times). */
export function useUiLocale(language: string): Locale {
  const [locale, setLocale] = useState<Locale>(() => bundled(language) ?? enUS);
  useEffect(() => {
    const ready = bundled(language);
    if (ready) {
      dayjs.locale(language === 'cn' ? 'zh-cn' : 'en');
      setLocale(ready);
      return;
    }
    const lazy = LOCALES[language as keyof typeof LOCALES];
    if (!lazy) return;
    let live = true;
    void Promise.all([lazy.antd(), lazy.loadDayjs()]).then(
      ([antdLocale]) => {
        if (!live) return;
        dayjs.locale(lazy.dayjs);
        setLocale(antdLocale);
      },
      () => {
        // Offline or a missing chunk: stay with English formats.
      },
    );
    return () => {
      live = false;
    };
  }, [language]);
  return locale;
}
