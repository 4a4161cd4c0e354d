import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { registerServiceWorker } from './app/register-sw';
import { activateLanguage, initialLanguage } from './lib/i18n';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App live />
    </StrictMode>,
  );
// The language's catalog first (a small chunk of its own), so no screen shows in another; if it
// cannot be fetched, English's.
activateLanguage(initialLanguage())
  .catch(() => activateLanguage('en'))
  .then(render, render);

registerServiceWorker();
