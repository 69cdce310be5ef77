window.YTD.tweets.part0 = [
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452040074326118"
          ],
          "editableUntil": "2019-03-01T12:30:05.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities": {
        "hashtags": [
          {
            "text": "Stanford",
            "indices": [
              "66",
              "75"
            ]
          },
          {
            "text": "Commencement2019",
            "indices": [
              "76",
              "93"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "Stanford University",
            "screen_name": "Stanford",
            "indices": [
              "56",
              "65"
            ],
            "id_str": "18036441",
            "id": "18036441"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "93"
      ],
      "favorite_count": "41",
      "id_str": "1101452040074326118",
      "truncated": false,
      "retweet_count": "38",
      "id": "1101452040074326118",
      "created_at": "Fri Mar 01 12:00:05 +0000 2019",
      "favorited": false,
      "full_text": "Commencement speaker announced for June 16! Details via @Stanford #Stanford #Commencement2019",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452090405978215"
          ],
          "editableUntil": "2019-03-01T12:30:17.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"http://twitter.com/download/android\" rel=\"nofollow\">Twitter for Android</a>",
      "entities": {
        "hashtags": [
          {
            "text": "stanford",
            "indices": [
              "76",
              "85"
            ]
          },
          {
            "text": "NASA",
            "indices": [
              "86",
              "91"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "Stanford University",
            "screen_name": "Stanford",
            "indices": [
              "16",
              "25"
            ],
            "id_str": "18036441",
            "id": "18036441"
          },
          {
            "name": "Intl. Space Station",
            "screen_name": "Space_Station",
            "indices": [
              "48",
              "62"
            ],
            "id_str": "1451773004",
            "id": "1451773004"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "91"
      ],
      "favorite_count": "71",
      "id_str": "1101452090405978215",
      "truncated": false,
      "retweet_count": "15",
      "id": "1101452090405978215",
      "created_at": "Fri Mar 01 12:00:17 +0000 2019",
      "favorited": false,
      "full_text": "Congrats to the @Stanford alumni heading to the @Space_Station next year \ud83c\udf32\ud83d\ude80 #stanford #NASA",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452149126238312"
          ],
          "editableUntil": "2019-03-01T12:30:31.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities": {
        "hashtags": [
          {
            "text": "東京",
            "indices": [
              "38",
              "41"
            ]
          },
          {
            "text": "STANFORD",
            "indices": [
              "42",
              "51"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "NASA",
            "screen_name": "nasa",
            "indices": [
              "11",
              "16"
            ],
            "id_str": "11348282",
            "id": "11348282"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "51"
      ],
      "favorite_count": "86",
      "id_str": "1101452149126238312",
      "truncated": false,
      "retweet_count": "32",
      "id": "1101452149126238312",
      "created_at": "Fri Mar 01 12:00:31 +0000 2019",
      "favorited": false,
      "full_text": "東京からこんにちは！ @nasa のライブ配信をスタンフォードで見ています #東京 #STANFORD",
      "lang": "ja"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452203652173929"
          ],
          "editableUntil": "2019-03-01T12:30:44.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>",
      "entities": {
        "hashtags": [
          {
            "text": "Россия",
            "indices": [
              "43",
              "50"
            ]
          },
          {
            "text": "stanford",
            "indices": [
              "51",
              "60"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "60"
      ],
      "favorite_count": "47",
      "id_str": "1101452203652173929",
      "truncated": false,
      "retweet_count": "9",
      "id": "1101452203652173929",
      "created_at": "Fri Mar 01 12:00:44 +0000 2019",
      "favorited": false,
      "full_text": "Привет из Калифорнии! Первая неделя обмена #Россия #stanford",
      "lang": "ru"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452279149650026"
          ],
          "editableUntil": "2019-03-01T12:31:02.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities": {
        "hashtags": [
          {
            "text": "Россия",
            "indices": [
              "60",
              "67"
            ]
          },
          {
            "text": "stanford",
            "indices": [
              "68",
              "77"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "Иван Петров",
            "screen_name": "ivan_petrov",
            "indices": [
              "3",
              "15"
            ],
            "id_str": "2837461190",
            "id": "2837461190"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "77"
      ],
      "favorite_count": "32",
      "id_str": "1101452279149650026",
      "truncated": false,
      "retweet_count": "26",
      "id": "1101452279149650026",
      "created_at": "Fri Mar 01 12:01:02 +0000 2019",
      "favorited": false,
      "full_text": "RT @ivan_petrov: Привет из Калифорнии! Первая неделя обмена #Россия #stanford",
      "lang": "ru"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452350452822123"
          ],
          "editableUntil": "2019-03-01T12:31:19.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>",
      "entities": {
        "hashtags": [
          {
            "text": "РОССИЯ",
            "indices": [
              "0",
              "7"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "Иван Петров",
            "screen_name": "ivan_petrov",
            "indices": [
              "69",
              "81"
            ],
            "id_str": "2837461190",
            "id": "2837461190"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "81"
      ],
      "favorite_count": "73",
      "id_str": "1101452350452822123",
      "truncated": false,
      "retweet_count": "3",
      "id": "1101452350452822123",
      "created_at": "Fri Mar 01 12:01:19 +0000 2019",
      "favorited": false,
      "full_text": "#РОССИЯ и Стэнфорд: новая программа обмена для Stanfordians, спасибо @ivan_petrov",
      "lang": "ru"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452421755994220"
          ],
          "editableUntil": "2019-03-01T12:31:36.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"http://twitter.com/download/android\" rel=\"nofollow\">Twitter for Android</a>",
      "entities": {
        "hashtags": [
          {
            "text": "GoTrees",
            "indices": [
              "109",
              "117"
            ]
          },
          {
            "text": "BeatCal",
            "indices": [
              "118",
              "126"
            ]
          },
          {
            "text": "Pac12",
            "indices": [
              "127",
              "133"
            ]
          },
          {
            "text": "stanford",
            "indices": [
              "134",
              "143"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "Stanford Athletics",
            "screen_name": "GoStanford",
            "indices": [
              "3",
              "14"
            ],
            "id_str": "21659423",
            "id": "21659423"
          },
          {
            "name": "Stanford University",
            "screen_name": "Stanford",
            "indices": [
              "99",
              "108"
            ],
            "id_str": "18036441",
            "id": "18036441"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "143"
      ],
      "favorite_count": "17",
      "id_str": "1101452421755994220",
      "truncated": false,
      "retweet_count": "20",
      "id": "1101452421755994220",
      "created_at": "Fri Mar 01 12:01:36 +0000 2019",
      "favorited": false,
      "full_text": "RT @GoStanford: Big Game week on the Farm! Tickets are going fast, grab yours before Saturday with @Stanford #GoTrees #BeatCal #Pac12 #stanford",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452480476254317"
          ],
          "editableUntil": "2019-03-01T12:31:50.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities": {
        "hashtags": [
          {
            "text": "Swift",
            "indices": [
              "26",
              "32"
            ]
          },
          {
            "text": "Stanford",
            "indices": [
              "45",
              "54"
            ]
          },
          {
            "text": "iOSDev",
            "indices": [
              "400",
              "407"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "Swift",
            "screen_name": "SwiftLang",
            "indices": [
              "329",
              "339"
            ],
            "id_str": "3244785612",
            "id": "3244785612"
          },
          {
            "name": "Stanford Engineering",
            "screen_name": "StanfordEng",
            "indices": [
              "360",
              "372"
            ],
            "id_str": "36180264",
            "id": "36180264"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "407"
      ],
      "favorite_count": "32",
      "id_str": "1101452480476254317",
      "truncated": false,
      "retweet_count": "37",
      "id": "1101452480476254317",
      "created_at": "Fri Mar 01 12:01:50 +0000 2019",
      "favorited": false,
      "full_text": "What I learned teaching a #Swift workshop at #Stanford this quarter, in one post instead of a thread. Value types make R&amp;D prototypes safer, protocols beat deep inheritance, and async/await finally made our networking code readable. Students shipped 14 apps in ten weeks, two of them already on the App Store. Huge thanks to @SwiftLang for the docs and to @StanfordEng for the room. Slides soon! #iOSDev",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452555973709934"
          ],
          "editableUntil": "2019-03-01T12:32:08.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities": {
        "hashtags": [
          {
            "text": "AI",
            "indices": [
              "35",
              "38"
            ]
          },
          {
            "text": "stanford",
            "indices": [
              "60",
              "69"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [],
        "urls": [
          {
            "url": "https://t.co/Qx2AIndex1",
            "expanded_url": "https://twitter.com/StanfordHAI/status/1101376530019410021",
            "display_url": "twitter.com/StanfordHAI/status/1…",
            "indices": [
              "76",
              "99"
            ]
          }
        ]
      },
      "display_text_range": [
        "0",
        "99"
      ],
      "favorite_count": "4",
      "id_str": "1101452555973709934",
      "truncated": false,
      "retweet_count": "14",
      "id": "1101452555973709934",
      "created_at": "Fri Mar 01 12:02:08 +0000 2019",
      "favorited": false,
      "full_text": "Worth a read for anyone working on #AI policy. Proud of the #stanford team! https://t.co/Qx2AIndex1",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452635665490031"
          ],
          "editableUntil": "2019-03-01T12:32:27.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities": {
        "hashtags": [
          {
            "text": "caf\u00e9",
            "indices": [
              "5",
              "10"
            ]
          },
          {
            "text": "Stanford",
            "indices": [
              "44",
              "53"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [],
        "urls": []
      },
      "display_text_range": [
        "0",
        "55"
      ],
      "favorite_count": "30",
      "id_str": "1101452635665490031",
      "truncated": false,
      "retweet_count": "31",
      "id": "1101452635665490031",
      "created_at": "Fri Mar 01 12:02:27 +0000 2019",
      "favorited": false,
      "full_text": "Best #caf\u00e9 near campus? Asking for a friend #Stanford ☕",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452694385750128"
          ],
          "editableUntil": "2019-03-01T12:32:41.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>",
      "entities": {
        "hashtags": [
          {
            "text": "stanford",
            "indices": [
              "86",
              "95"
            ]
          },
          {
            "text": "NASA",
            "indices": [
              "96",
              "101"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "NASA",
            "screen_name": "NASA",
            "indices": [
              "3",
              "8"
            ],
            "id_str": "11348282",
            "id": "11348282"
          },
          {
            "name": "Stanford University",
            "screen_name": "Stanford",
            "indices": [
              "26",
              "35"
            ],
            "id_str": "18036441",
            "id": "18036441"
          },
          {
            "name": "Intl. Space Station",
            "screen_name": "Space_Station",
            "indices": [
              "58",
              "72"
            ],
            "id_str": "1451773004",
            "id": "1451773004"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "101"
      ],
      "favorite_count": "45",
      "id_str": "1101452694385750128",
      "truncated": false,
      "retweet_count": "8",
      "id": "1101452694385750128",
      "created_at": "Fri Mar 01 12:02:41 +0000 2019",
      "favorited": false,
      "full_text": "RT @NASA: Congrats to the @Stanford alumni heading to the @Space_Station next year \ud83c\udf32\ud83d\ude80 #stanford #NASA",
      "lang": "en"
    }
  },
  {
    "tweet": {
      "edit_info": {
        "initial": {
          "editTweetIds": [
            "1101452765688922225"
          ],
          "editableUntil": "2019-03-01T12:32:58.000Z",
          "editsRemaining": "5",
          "isEditEligible": false
        }
      },
      "retweeted": false,
      "source": "<a href=\"http://twitter.com/download/android\" rel=\"nofollow\">Twitter for Android</a>",
      "entities": {
        "hashtags": [
          {
            "text": "BayArea",
            "indices": [
              "100",
              "108"
            ]
          },
          {
            "text": "Café",
            "indices": [
              "113",
              "119"
            ]
          }
        ],
        "symbols": [],
        "user_mentions": [
          {
            "name": "NASA",
            "screen_name": "NASA",
            "indices": [
              "65",
              "70"
            ],
            "id_str": "11348282",
            "id": "11348282"
          },
          {
            "name": "田中 芽衣",
            "screen_name": "mei_tanaka",
            "indices": [
              "81",
              "92"
            ],
            "id_str": "3190045821",
            "id": "3190045821"
          }
        ],
        "urls": []
      },
      "display_text_range": [
        "0",
        "119"
      ],
      "favorite_count": "86",
      "id_str": "1101452765688922225",
      "truncated": false,
      "retweet_count": "25",
      "id": "1101452765688922225",
      "created_at": "Fri Mar 01 12:02:58 +0000 2019",
      "favorited": false,
      "full_text": "Café au lait at Stanford's Coupa, then an R&amp;D talk with the @NASA folks and @mei_tanaka. Rainy #BayArea day #Café",
      "lang": "en"
    }
  }
]