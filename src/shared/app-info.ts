// Names shown to the user, one place.
export const APP_NAME = 'Export Explorer'
