// Help → pc: the user guide of the web app, from docs/guide/<lang>.md (kept beside the code, pictures taken
// by the browser suite). Chinese and English are written; other languages read the English guide.
import { Card } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { renderGuide } from './guideMarkdown.tsx';

const guides = import.meta.glob<string>('../../../../../docs/guide/*.md', { query: '?raw', import: 'default' });
const images = import.meta.glob<string>('../../../../../docs/guide/img/*.png', {
  query: '?url',
  import: 'default',
  eager: true,
});

const imageUrl = (path: string) => images[`../../../../../docs/guide/${path}`];

export default function HelpPcPage() {
  const { i18n } = useTranslation();
  const [content, setContent] = useState<ReactNode[] | null>(null);
  const lang = i18n.language === 'cn' ? 'cn' : 'en';
  useEffect(() => {
    const load = guides[`../../../../../docs/guide/${lang}.md`];
    let live = true;
    load?.().then((md) => {
      if (live) setContent(renderGuide(md, imageUrl));
    });
    return () => {
      live = false;
    };
  }, [lang]);
  return (
    <div style={{ padding: 16, maxWidth: 960 }} data-testid="help-pc" lang={lang === 'cn' ? 'zh' : 'en'}>
      <Card>{content}</Card>
    </div>
  );
}
