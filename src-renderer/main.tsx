import { createRoot } from 'react-dom/client';

function App() {
  return <main>Wager Desk</main>;
}

createRoot(document.getElementById('root')!).render(<App />);
