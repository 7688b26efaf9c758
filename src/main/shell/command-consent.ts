// The user's own yes before a follow target that runs a command is saved (issue 22). A command runs code as the user,
// so a renderer alone (a page gone wrong, a script injected into it) must not be able to add one: in Electron, main
// asks in a native dialog the page cannot answer. Pure, so Node tests give it the values Electron really passes:
// showMessageBox resolves to { response: <index of the button>, checkboxChecked }, and Escape or closing the dialog
// gives cancelId.

/** The options of dialog.showMessageBox (the fields this dialog uses). */
export interface ConsentDialog {
  readonly type: 'warning'
  readonly title: string
  readonly message: string
  readonly detail: string
  readonly buttons: string[]
  readonly defaultId: number
  readonly cancelId: number
  readonly noLink: true
}

const RUN = 0
const CANCEL = 1

export function commandConsentDialog(command: string, connectionName: string): ConsentDialog {
  return {
    type: 'warning',
    title: 'Run a command on changes?',
    message: `Run this command each time an incident of ${connectionName} opens, changes or resolves?`,
    detail: `${command}\n\nIt runs as you, with the incident as JSON on its standard input. Add it only if you typed it yourself.`,
    buttons: ['Run this command', 'Cancel'],
    defaultId: CANCEL,
    cancelId: CANCEL,
    noLink: true
  }
}

/** Whether the dialog's answer is the user's yes (anything else, a missing answer included, is a no). */
export function consentGiven(answer: { readonly response?: unknown; readonly checkboxChecked?: boolean } | null | undefined): boolean {
  return answer?.response === RUN
}
