"""The bank's fraud report API, as STAR's mock knowledge base answers it.

STAR's bank accepts a report when the request names the customer and carries either the
account number and PIN, or the date of birth and both security answers; it does not check
the values. ``genie-bot eval star`` replaces this function's result with the one recorded
in the dialogue being replayed.
"""

from __future__ import annotations


SUBMITTED = "Fraud report submitted successfully."
CANNOT_AUTHENTICATE = ("You must provide either AccountNumber/FullName/PIN or FullName/DateOfBirth/SecurityAnswer1/"
                       "SecurityAnswer2. We cannot authenticate the user otherwise.")


def bank_fraud_report(full_name: str, fraud_report: str, account_number: str | None = None, pin: str | None = None,
                      date_of_birth: str | None = None, mothers_maiden_name: str | None = None,
                      childhood_pet_name: str | None = None) -> dict[str, str]:
    """File the report; ``{"confirmation": ...}`` on success, ``{"message": ...}`` otherwise."""
    def given(*values: object) -> bool:
        return all(v not in (None, "") for v in values)

    if given(full_name) and (given(account_number, pin)
                             or given(date_of_birth, mothers_maiden_name, childhood_pet_name)):
        return {"confirmation": SUBMITTED}
    return {"message": CANNOT_AUTHENTICATE}
