// Service worker of browser notifications (issue 18): shows the server's Web Push messages and opens their map
// link when clicked. Registered by the notification rules screen.
self.addEventListener('push', (event) => {
  let message = { title: 'Carhere', body: '' };
  try {
    message = event.data ? event.data.json() : message;
  } catch {
    message = { title: 'Carhere', body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.id,
      data: { url: message.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data?.url;
  if (url) event.waitUntil(self.clients.openWindow(url));
});
