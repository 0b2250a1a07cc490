/**
 * The naive baseline peers use: the whole exported thread (thread.json, every message oldest
 * first) rendered by one plain, non-virtualized list of react-markdown blocks, opened at the
 * newest message. Built and served by ../baseline.ts for the side-by-side in ../sideBySide.ts.
 */
import { useLayoutEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import Markdown from "react-markdown";
import remarkGfm from "remark-gfm";

type ExportedMessage = { id: string; role: string; text: string };

const plugins = [remarkGfm];

function Thread({ messages }: { messages: ExportedMessage[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);
  return (
    <div className="scroller" ref={scroller}>
      <ol>
        {messages.map((message) => (
          <li key={message.id} data-message-id={message.id} data-role={message.role}>
            <Markdown remarkPlugins={plugins}>{message.text}</Markdown>
          </li>
        ))}
      </ol>
    </div>
  );
}

function App() {
  const [messages, setMessages] = useState<ExportedMessage[] | null>(null);
  useLayoutEffect(() => {
    void fetch("./thread.json")
      .then((response) => response.json() as Promise<ExportedMessage[]>)
      .then(setMessages);
  }, []);
  return messages === null ? null : <Thread messages={messages} />;
}

const root = document.getElementById("root");
if (!root) throw new Error("no #root");
createRoot(root).render(<App />);
