import { Api, ApiError, takeToken } from './api.js';
import { clear, h, setText } from './dom.js';
import { runnerLabel } from './format.js';
import { readRoute } from './routes.js';
import { renderSessionPage } from './session-page.js';
import { renderSessionsPage } from './sessions-page.js';
import type { StudioInfo } from './wire-types.js';

/** The studio page: reads the token, then draws the route in the hash (sessions list or one session). */
async function start(): Promise<void> {
  const root = document.getElementById('app') as HTMLElement;
  const api = new Api(takeToken());
  let info: StudioInfo;
  try {
    info = await api.get<StudioInfo>('info');
  } catch (error) {
    clear(root);
    root.appendChild(
      h(
        'main',
        { class: 'locked' },
        h('h1', null, 'replan studio'),
        h(
          'p',
          null,
          error instanceof ApiError && error.status === 401
            ? 'Open the URL the studio printed: it carries the access token.'
            : (error as Error).message,
        ),
      ),
    );
    return;
  }
  const badge = document.getElementById('mode') as HTMLElement;
  setText(
    badge,
    info.readOnly
      ? `read-only · ${info.storeKind} store`
      : `runners: ${info.runners.map(runnerLabel).join(', ')} · ${info.storeKind} store`,
  );
  let stop: (() => void) | undefined;
  const draw = async () => {
    stop?.();
    stop = undefined;
    const route = readRoute();
    try {
      if (route.page === 'session') stop = await renderSessionPage(root, api, info, route);
      else await renderSessionsPage(root, api, info, route);
      document.body.dataset.ready = route.page;
    } catch (error) {
      clear(root);
      root.appendChild(
        h('main', null, h('h1', null, 'Something went wrong'), h('p', { attrs: { role: 'alert' } }, (error as Error).message)),
      );
    }
  };
  window.addEventListener('hashchange', () => {
    delete document.body.dataset.ready;
    void draw();
  });
  await draw();
}

void start();
