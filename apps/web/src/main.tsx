import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider } from 'antd';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { callEnvelope, setSessionExpiredHandler } from './api/client.ts';
import type { LoginData } from './api/types.ts';
import { App } from './app/App.tsx';
import { EmptyState, listSkeletonCss } from './app/EmptyState.tsx';
import { authStore } from './auth/store.ts';
import { loadBrand, useBrand } from './features/custself/brand.ts';
import './i18n/index.ts';
import { useUiLocale } from './i18n/uiLocales.ts';

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

// Code 407 clears user info and goes to login (spec §4).
setSessionExpiredHandler(() => {
  if (authStore.get()) authStore.set(null);
  queryClient.clear();
  // A share link's public page is for people without an account: it stays where it is.
  if (location.pathname !== '/login' && !location.pathname.startsWith('/share/')) location.assign('/login');
});

/** A remembered session (long-lived cookie) restores the user after the browser was closed. */
async function restoreSession(): Promise<void> {
  if (authStore.get()) return;
  try {
    const env = await callEnvelope<LoginData | null>('/session', undefined, { method: 'GET' });
    if (env.meta.success && env.data) authStore.set(env.data);
  } catch {
    // Not logged in or server unreachable: the guard sends the user to login.
  }
}

/** Lists without their own empty text say what to do next on their screen (app/EmptyState.tsx). */
const renderEmpty = (component?: string) =>
  component === 'Table' || component === 'List' ? <EmptyState /> : undefined;

/** Card titles wrap instead of cutting a long title (a phone's width, a long account name, ru or my texts). */
const CARD = { styles: { title: { whiteSpace: 'normal', overflow: 'visible', paddingBlock: 6 } } } as const;

function Root() {
  const { i18n } = useTranslation();
  const [ready, setReady] = useState(false);
  const locale = useUiLocale(i18n.language);
  const brand = useBrand();
  useEffect(() => {
    // The brand of this host name or /b/<key> path comes before the first paint, so its login page shows at once.
    void Promise.all([restoreSession(), loadBrand()]).finally(() => setReady(true));
  }, []);
  // Until then the same indicator as index.html's first paint: never a blank page while the server answers.
  if (!ready) return <div className="carhere-boot" data-boot aria-busy="true" />;
  return (
    <ConfigProvider
      locale={locale}
      theme={{ token: { colorPrimary: brand?.primaryColor || '#1677ff' } }}
      card={CARD}
      renderEmpty={renderEmpty}
    >
      {/* antd's App (message, modal, notification) wraps the signed-in layout only (MainLayout): the login
          page does not use them, so they are not in its first bundle. */}
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </ConfigProvider>
  );
}

const style = document.createElement('style');
style.textContent = `html,body,#root{height:100%;margin:0}${listSkeletonCss}`;
document.head.appendChild(style);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
