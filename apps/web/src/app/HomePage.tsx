/** `/`: on wide screens the sidebar lists threads; the main pane welcomes the user. */
export function HomePage() {
  return (
    <div className="home">
      <div className="home__card">
        <h1>Chat with the assistant</h1>
        <p>
          Pick a thread from the list or start a new one. Select text in any reply to quote it in
          your next message.
        </p>
      </div>
    </div>
  );
}
