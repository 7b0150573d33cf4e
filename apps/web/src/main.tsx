import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import './app/styles.css';

// The first render starts in a task of its own once the modules have run: two shorter tasks
// instead of one long one, so the browser can paint or take input in between (decision 0016).
setTimeout(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
