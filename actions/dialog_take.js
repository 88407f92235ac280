/* The dialogs recorded since the last read (see dialogs.js). */
// @include dialogs.js
return takeDialogs();
