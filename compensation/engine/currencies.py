"""ISO 4217 currency codes (the active list, including funds and precious metals' X codes)."""

from __future__ import annotations

from .errors import EngineInputError

ISO_4217: frozenset[str] = frozenset(
    """
    AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD
    BTN BWP BYN BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD
    EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD
    IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL
    MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN
    PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN
    SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES
    VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA XXX YER
    ZAR ZMW ZWG ZWL
    """.split()  # noqa: SIM905 (the published list, as published)
)


def is_currency(code: object) -> bool:
    """Return whether ``code`` is an ISO 4217 code (upper-case, as published)."""
    return isinstance(code, str) and code in ISO_4217


def check_currency(field: str, code: object) -> str:
    """Return ``code`` if it is an ISO 4217 code, else raise EngineInputError naming ``field``."""
    if not is_currency(code):
        raise EngineInputError(
            field, f"must be an ISO 4217 currency code such as USD or TWD (got {code!r})"
        )
    assert isinstance(code, str)
    return code
