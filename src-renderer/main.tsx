import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { applyTheme } from './components/ThemeToggle';
import { connectStore } from './store/events';
import { connectRoute } from './store/route-sync';
import './styles.css';

applyTheme();
connectStore();
connectRoute();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
